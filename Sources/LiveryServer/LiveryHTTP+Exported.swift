// The protocol's types (EntityTag, BearerToken, CrossOriginPolicy…) live in LiveryHTTP so the
// fuzzer can build them without Hummingbird; programs that import LiveryServer keep seeing the
// public ones (not its SPI: docs/ARCHITECTURE.md, "The public face").
@_exported import LiveryHTTP
