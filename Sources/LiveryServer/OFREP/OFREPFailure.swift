import Hummingbird

/// An OFREP evaluation that fails, as the protocol writes it: an `errorCode` and its
/// `errorDetails`, with the key for a single flag.
struct OFREPFailure: Error, Sendable, Equatable {
    /// The protocol's error codes.
    enum Code: String, Sendable {
        case flagNotFound = "FLAG_NOT_FOUND"
        case parseError = "PARSE_ERROR"
        case invalidContext = "INVALID_CONTEXT"
        case targetingKeyMissing = "TARGETING_KEY_MISSING"
        case general = "GENERAL"
    }

    var code: Code
    var details: String

    init(_ code: Code, _ details: String) {
        self.code = code
        self.details = details
    }

    /// 404 for an unknown flag, 400 for the rest (the protocol's statuses).
    var status: HTTPResponse.Status { code == .flagNotFound ? .notFound : .badRequest }

    /// The answer: `{"key", "errorCode", "errorDetails"}` (no key for a bulk request).
    func response(key: String?) -> Response {
        var fields: [String: String] = ["errorCode": code.rawValue, "errorDetails": details]
        fields["key"] = key
        return JSONBody.response(fields, status: status, headers: [.cacheControl: "no-store"])
    }
}
