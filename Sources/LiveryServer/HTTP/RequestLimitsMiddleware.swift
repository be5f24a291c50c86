import Hummingbird

/// Refuses request heads over the daemon's limits before any route runs: a request target over
/// ``DaemonConfiguration/maxURIBytes`` gets 414, header fields over
/// ``DaemonConfiguration/maxHeaderBytes`` get 431, both as problem documents. The head was read
/// whole (within the parser's ceiling), so the connection stays usable.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxURIBytes: Int
    let maxHeaderBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let target = request.head.path?.utf8.count ?? 0
        if target > maxURIBytes {
            return Problem(
                kind: "uri-too-long", title: "URI too long", status: .uriTooLong,
                detail: "the request target is \(target) bytes; the limit is \(maxURIBytes) bytes"
            ).response()
        }
        let fields = request.headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        if fields > maxHeaderBytes {
            return Problem(
                kind: "headers-too-large", title: "Request header fields too large", status: .requestHeaderFieldsTooLarge,
                detail: "the header fields are \(fields) bytes; the limit is \(maxHeaderBytes) bytes"
            ).response()
        }
        return try await next(request, context)
    }
}
