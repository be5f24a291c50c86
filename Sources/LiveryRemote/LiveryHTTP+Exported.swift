@_exported import struct LiveryHTTP.BearerToken
// The `Livery-Client` header's types and the read token live in LiveryHTTP, where the daemon reads them too;
// programs that configure a RemoteSpecSource see them without importing LiveryHTTP.
@_exported import struct LiveryHTTP.ClientHeaderError
@_exported import struct LiveryHTTP.ClientIdentity
@_exported import struct LiveryHTTP.LiveryClientHeader
@_exported import struct LiveryHTTP.TokenError
