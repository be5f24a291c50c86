import Hummingbird

/// The methods each of the daemon's paths answers, built from the routes as they are
/// registered: what `Allow` says on a 405 and on an `OPTIONS` answer (RFC 9110 §9.3.7,
/// §15.5.6). Every `GET` path also answers `HEAD`, and every known path `OPTIONS`.
struct AllowedMethods: Sendable {
    /// A path as the router's patterns write it: exact, with `{name}` segments, or a prefix and `/**`.
    private struct Entry: Sendable {
        var pattern: String
        var methods: [HTTPRequest.Method]
    }

    private var entries: [Entry] = []

    /// Records that `method` answers `pattern`.
    mutating func add(_ method: HTTPRequest.Method, _ pattern: String) {
        if let index = entries.firstIndex(where: { $0.pattern == pattern }) {
            entries[index].methods.append(method)
        } else {
            entries.append(Entry(pattern: pattern, methods: [method]))
        }
    }

    /// The methods `path` answers, in the order `Allow` lists them; `nil` for an unknown path.
    func methods(for path: String) -> [HTTPRequest.Method]? {
        var found: [HTTPRequest.Method] = []
        for entry in entries where Self.path(path, matches: entry.pattern) {
            found += entry.methods
        }
        guard !found.isEmpty else { return nil }
        if found.contains(.get) { found.append(.head) }
        found.append(.options)
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        return order.filter(found.contains)
    }

    /// The `Allow` value for `path`.
    func allowHeader(for path: String) -> String? {
        methods(for: path).map { $0.map(\.rawValue).joined(separator: ", ") }
    }

    /// Whether `path` is one the router sends to `pattern`: a `{name}` segment stands for any
    /// one non-empty segment, a final `/**` for one or more.
    private static func path(_ path: String, matches pattern: String) -> Bool {
        if pattern.hasSuffix("/**") {
            let prefix = pattern.dropLast(2)
            return path.hasPrefix(prefix) && path.count > prefix.count
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let expected = pattern.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == expected.count else { return false }
        return zip(segments, expected).allSatisfy { segment, expected in
            expected.hasPrefix("{") && expected.hasSuffix("}") ? !segment.isEmpty : segment == expected
        }
    }
}

/// Answers `OPTIONS` on a known path (204 with `Allow`, and no CORS grant) and refuses a method
/// a known path does not answer (405 with `Allow`); unknown paths go on to the router's 404.
struct AllowedMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedMethods

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let methods = allowed.methods(for: request.uri.path),
            !methods.contains(request.method) || request.method == .options
        else { return try await next(request, context) }
        var headers = HTTPFields()
        headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
        if request.method == .options {
            headers[.contentLength] = "0"
            return Response(status: .noContent, headers: headers)
        }
        return Problem(
            kind: "method-not-allowed", title: "Method not allowed", status: .methodNotAllowed,
            detail: "\(request.uri.path) answers \(headers[.allow] ?? "")"
        ).response(headers: headers)
    }
}
