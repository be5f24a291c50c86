// The `Livery-Client` header's types live in LiveryHTTP, where the daemon parses them too;
// programs that configure a RemoteSpecSource see them without importing LiveryHTTP.
@_exported import struct LiveryHTTP.ClientHeaderError
@_exported import struct LiveryHTTP.ClientIdentity
@_exported import struct LiveryHTTP.LiveryClientHeader
