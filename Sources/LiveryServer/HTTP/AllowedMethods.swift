import Hummingbird

/// The methods each of the daemon's route patterns answers, from the route table: what `Allow`
/// says on a 405 and on an `OPTIONS` answer (RFC 9110 §9.3.7, §15.5.6). Every `GET` pattern
/// also answers `HEAD`, and every pattern `OPTIONS`.
///
/// Both answers are registered on the router as routes of the pattern itself
/// (``register(on:)``), so the router's own matching decides which pattern a path belongs to:
/// there is no second matcher to drift from it. A path no pattern matches stays the router's 404.
struct AllowedMethods: Sendable {
    /// The methods a known pattern may be asked for, in the order `Allow` lists them.
    static let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
    /// The methods a known pattern refuses with 405 when it does not answer them: those of
    /// ``order``, and `TRACE` and `QUERY` (RFC 9110; the HTTP QUERY method draft), which no
    /// route answers. Any other method is the router's 404.
    static let refusable: [HTTPRequest.Method] = order + [.trace] + (HTTPRequest.Method("QUERY").map { [$0] } ?? [])

    /// Each pattern's methods, in the order the routes were added.
    private(set) var patterns: [(pattern: String, methods: [HTTPRequest.Method])] = []

    /// Records that `method` answers `pattern`.
    mutating func add(_ method: HTTPRequest.Method, _ pattern: String) {
        if let index = patterns.firstIndex(where: { $0.pattern == pattern }) {
            patterns[index].methods.append(method)
        } else {
            patterns.append((pattern, [method]))
        }
    }

    /// The `Allow` list of a pattern answering `methods`.
    static func allowed(_ methods: [HTTPRequest.Method]) -> [HTTPRequest.Method] {
        var found = methods + [.options]
        if found.contains(.get) { found.append(.head) }
        return order.filter(found.contains)
    }

    /// Adds, for every pattern, an `OPTIONS` route (204 with `Allow`, no CORS grant) and a 405
    /// route with `Allow` for each method of ``refusable`` the pattern does not answer, behind
    /// `refusals` (where reads need a key, a 405 needs one too). A CORS preflight never carries
    /// credentials and its answer holds no data, so `OPTIONS` needs none.
    func register<Context: RequestContext>(on router: Router<Context>, refusals: some RouterMiddleware<Context>) {
        let refused = router.group().add(middleware: refusals)
        for (pattern, methods) in patterns {
            let allowed = Self.allowed(methods)
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            router.on(RouterPath(pattern), method: .options) { _, _ in
                var headers = HTTPFields()
                headers[.allow] = allow
                headers[.contentLength] = "0"
                return Response(status: .noContent, headers: headers)
            }
            for method in Self.refusable where !allowed.contains(method) {
                refused.on(RouterPath(pattern), method: method) { request, _ in
                    var headers = HTTPFields()
                    headers[.allow] = allow
                    return Problem(
                        kind: .methodNotAllowed, detail: "\(request.uri.path) answers \(allow)"
                    ).response(headers: headers)
                }
            }
        }
    }
}
