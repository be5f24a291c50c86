// The request-header types (EntityTag, BearerToken, WaitDuration…) live in LiveryHTTP so the
// fuzzer can build them without Hummingbird; programs that import LiveryServer keep seeing them.
@_exported import LiveryHTTP
