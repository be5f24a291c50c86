import Foundation
@_spi(LiveryInternal) import LiveryHTTP

/// Who may call a route: the one rule every request passes, from the scope its route states
/// (``DaemonRoutes/Route/scope``), the environment it addresses and the key it carries.
///
/// - A route without a scope (the probes, the studio's own files) is open to all.
/// - A `read` route is open to all unless the daemon requires a key to read
///   (`--require-read-key`, or `--read-token-file`).
/// - Any other request needs a key the ring knows (else ``Decision/unauthorized``, 401) that
///   holds the scope (`admin` holds all) on the request's environment (else
///   ``Decision/forbidden(scope:environment:key:)``, 403).
struct AccessRule: Sendable, ReadKeyCheck {
    let keys: KeyRing
    /// Whether reads need a key.
    let readsNeedKey: Bool
    /// The environment of the routes without one.
    let defaultEnvironment: String

    /// The answer to a request.
    enum Decision: Equatable, Sendable {
        /// Answer it; `key` names the key it carried, if it carried one the ring knows.
        case allowed(key: String?)
        /// No key, or one the ring does not know.
        case unauthorized
        /// A known key without `scope` on `environment`.
        case forbidden(scope: KeyScope, environment: String, key: String)
    }

    /// The decision on a request for a route needing `scope` (`nil`: open) in `environment`,
    /// carrying `authorization`.
    func decide(_ authorization: String?, scope: KeyScope?, environment: String) -> Decision {
        guard let scope else { return .allowed(key: keys.grant(of: authorization)?.name) }
        let grant = keys.grant(of: authorization)
        if scope == .read, !readsNeedKey { return .allowed(key: grant?.name) }
        guard let grant else { return .unauthorized }
        guard grant.allows(scope, in: environment) else {
            return .forbidden(scope: scope, environment: environment, key: grant.name)
        }
        return .allowed(key: grant.name)
    }

    /// Throws the 401 (no key the ring knows) or the 403 (a key without `scope` on `environment`)
    /// of a request carrying `authorization` that needs `scope` (`nil`: open).
    func require(_ scope: KeyScope?, of authorization: String?, in environment: String) throws(Problem) {
        switch decide(authorization, scope: scope, environment: environment) {
        case .unauthorized:
            throw Problem.unauthorized(scope: scope ?? .read, environment: environment, readsNeedKey: readsNeedKey)
        case .forbidden(let scope, let environment, let key):
            throw Problem.missingScope(scope, environment: environment, key: key)
        case .allowed:
            break
        }
    }

    /// Whether `authorization` carries a key that may read the default environment: the raw
    /// path's question (``LiveryHTTP/RequestAdmission``).
    func admitsRead(_ authorization: UnsafeRawBufferPointer) -> Bool {
        keys.grant(of: authorization)?.allows(.read, in: defaultEnvironment) ?? false
    }

    /// Whether `authorization` may learn where the specs live: a key that may push to `environment`.
    func disclosesPlaces(to authorization: String?, in environment: String) -> Bool {
        keys.grant(of: authorization)?.allows(.push, in: environment) ?? false
    }

    /// The environment `path` addresses: `{env}` of `/v1/environments/{env}/…`
    /// (``LiveryHTTP/EnvironmentPath``), else the default.
    func environment(ofPath path: some StringProtocol) -> String {
        EnvironmentPath.split(path).environment.map(String.init) ?? defaultEnvironment
    }
}
