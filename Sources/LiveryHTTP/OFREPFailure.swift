/// An OFREP evaluation that fails, as the protocol writes it: an `errorCode` and its
/// `errorDetails` (the daemon adds the key for a single flag, and the HTTP status).
@_spi(LiveryInternal) public struct OFREPFailure: Error, Sendable, Equatable {
    /// The protocol's error codes.
    public enum Code: String, Sendable {
        case flagNotFound = "FLAG_NOT_FOUND"
        case parseError = "PARSE_ERROR"
        case invalidContext = "INVALID_CONTEXT"
        case targetingKeyMissing = "TARGETING_KEY_MISSING"
        case general = "GENERAL"
    }

    public var code: Code
    public var details: String

    public init(_ code: Code, _ details: String) {
        self.code = code
        self.details = details
    }
}
