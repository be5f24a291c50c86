import Hummingbird

/// Applies the ``AccessRule`` to one route: 401 without a known key, 403 for a key without the
/// route's scope on the request's environment; then, for a route that changes what clients
/// apply, 403 on a read-only daemon. In that order, so that only a holder of a fitting key
/// learns that writes are switched off.
struct KeyAuthorization<Context: RequestContext>: RouterMiddleware {
    let rule: AccessRule
    /// What the route needs; `nil` for an open route.
    let scope: KeyScope?
    /// Whether the daemon refuses the route: it was started with `--read-only` and the route
    /// changes what clients apply.
    let readOnly: Bool
    /// What the daemon serves, for the read-only 403's detail: "the specs folder", "the specs in etcd".
    let served: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let environment = rule.environment(ofPath: path)
        let authorization = RequestGate.authorization(of: request.head, path: path)
        switch rule.decide(authorization, scope: scope, environment: environment) {
        case .unauthorized:
            throw Problem.unauthorized(scope: scope ?? .read, environment: environment, readsNeedKey: rule.readsNeedKey)
        case .forbidden(let scope, let environment, let key):
            throw Problem.missingScope(scope, environment: environment, key: key)
        case .allowed:
            break
        }
        if readOnly {
            throw Problem(
                kind: .readOnly,
                detail: "this daemon was started with --read-only: it serves \(served) and accepts no writes")
        }
        return try await next(request, context)
    }
}

extension Problem {
    /// A request without a key the daemon knows, for a route that needs `scope`.
    static func unauthorized(scope: KeyScope, environment: String, readsNeedKey: Bool) -> Problem {
        var problem = Problem(
            kind: .unauthorized,
            detail: scope == .read && readsNeedKey
                ? "this daemon requires a key to read: requests need 'Authorization: Bearer <key>' with a key of scope 'read' on the environment '\(environment)'"
                : "this request needs the header 'Authorization: Bearer <key>' with a key of scope '\(scope.rawValue)' on the environment '\(environment)'",
            headers: [.wwwAuthenticate: #"Bearer realm="livery""#])
        problem.scope = scope.rawValue
        problem.environment = environment
        return problem
    }

    /// A known key without `scope` on `environment`.
    static func missingScope(_ scope: KeyScope, environment: String, key: String) -> Problem {
        var problem = Problem(
            kind: .missingScope,
            detail: "the key '\(key)' lacks the scope '\(scope.rawValue)' on the environment '\(environment)'")
        problem.scope = scope.rawValue
        problem.environment = environment
        return problem
    }
}
