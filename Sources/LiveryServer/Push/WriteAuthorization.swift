import Hummingbird

/// Guards the write routes: 401 unless the request carries the push token; then 403 if the
/// daemon is read-only. In that order, so that only a holder of the token learns that writes
/// are switched off.
struct WriteAuthorization<Context: RequestContext>: RouterMiddleware {
    let token: BearerToken
    let readOnly: Bool
    /// What the daemon serves, for the 403's detail: "the specs folder", "the specs in etcd".
    let served: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard token.authorizes(request.headers[.authorization]) else {
            throw Problem(
                kind: .unauthorized,
                detail: "writes need the header 'Authorization: Bearer <token>' with the daemon's push token",
                headers: [.wwwAuthenticate: #"Bearer realm="livery""#])
        }
        guard !readOnly else {
            throw Problem(
                kind: .readOnly,
                detail: "this daemon was started with --read-only: it serves \(served) and accepts no writes")
        }
        return try await next(request, context)
    }
}
