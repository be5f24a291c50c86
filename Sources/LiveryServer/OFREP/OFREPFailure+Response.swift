import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP

extension OFREPFailure {
    /// 404 for an unknown flag, 400 for the rest (the protocol's statuses).
    var status: HTTPResponse.Status { code == .flagNotFound ? .notFound : .badRequest }

    /// The answer: `{"key", "errorCode", "errorDetails"}` (no key for a bulk request).
    func response(key: String?) -> Response {
        var fields: [String: String] = ["errorCode": code.rawValue, "errorDetails": details]
        fields["key"] = key
        return JSONBody.response(fields, status: status, headers: [.cacheControl: "no-store"])
    }
}
