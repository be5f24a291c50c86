import Hummingbird

/// The daemon's limits on a request head: a request target over ``maxURIBytes`` gets 414, header
/// fields over ``maxHeaderBytes`` get 431, both as problem documents. The head was read whole
/// (within the parser's ceiling), so the connection stays usable.
struct RequestHeadLimits: Sendable {
    let maxURIBytes: Int
    let maxHeaderBytes: Int

    init(_ configuration: DaemonConfiguration) {
        maxURIBytes = configuration.maxURIBytes
        maxHeaderBytes = configuration.maxHeaderBytes
    }

    /// The problem with `head`, `nil` if it is within both limits.
    func problem(with head: HTTPRequest) -> Problem? {
        let target = head.path?.utf8.count ?? 0
        if target > maxURIBytes {
            return Problem(
                kind: .uriTooLong, detail: "the request target is \(target) bytes; the limit is \(maxURIBytes) bytes")
        }
        let fields = head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        if fields > maxHeaderBytes {
            return Problem(
                kind: .headersTooLarge,
                detail: "the header fields are \(fields) bytes; the limit is \(maxHeaderBytes) bytes")
        }
        return nil
    }
}
