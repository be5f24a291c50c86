package import Foundation

/// The environment a request addresses, read from its path: `/v1/environments/{env}/…` is the
/// route `/v1/…` of the environment `env`, and `/v1/environments/{env}/ofrep/v1/…` its route
/// `/ofrep/v1/…` (OpenFeature's remote evaluation protocol, whose paths are the protocol's own);
/// any other path addresses the default environment.
/// The daemon's route table, the bundle's readers and the clients all derive their environment
/// paths from this type, so the rule is written once.
package enum EnvironmentPath {
    /// The collection of environments (`GET` and `POST`); one environment is this, `/` and its name.
    package static let collection = "/v1/environments"
    /// The router's parameter that holds the environment's name.
    package static let parameter = "environment"
    /// The longest name: a DNS label's 63 characters.
    package static let maxNameLength = 63
    /// The roots of the routes an environment serves with their whole path after its prefix, as
    /// opposed to the `/v1/` routes, whose `/v1` the prefix already says.
    package static let wholeRoots = ["/ofrep/"]

    /// Splits `path` into the environment it names and the route it asks for, as the default
    /// environment's path (`/v1/environments/staging/spec` → `staging`, `/v1/spec`;
    /// `/v1/environments/staging/ofrep/v1/events` → `staging`, `/ofrep/v1/events`); a path
    /// outside `/v1/environments/{env}/` is returned as it is, with no environment.
    package static func split<Path: StringProtocol>(_ path: Path) -> (environment: Substring?, path: String) {
        let prefix = collection + "/"
        guard path.hasPrefix(prefix) else { return (nil, String(path)) }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex else { return (nil, String(path)) }
        let route = rest[slash...]
        return (Substring(rest[..<slash]), isWhole(route) ? String(route) : "/v1" + route)
    }

    /// The route `path` (a `/v1/…` or `/ofrep/v1/…` path or router pattern) of the environment
    /// `environment`; `nil` names the router's parameter (`/v1/environments/{environment}/…`).
    package static func path(_ path: String, environment: String?) -> String {
        let whole = isWhole(path)
        precondition(whole || path.hasPrefix("/v1/"), "an environment route is a /v1/ or /ofrep/ route: \(path)")
        return collection + "/" + (environment ?? "{\(parameter)}") + (whole ? path[...] : path.dropFirst("/v1".count))
    }

    /// Whether `route` is under one of the ``wholeRoots``.
    private static func isWhole(_ route: some StringProtocol) -> Bool {
        wholeRoots.contains { route.hasPrefix($0) }
    }

    /// The URL of the route `path` (a `/v1/…` path) of `environment` (`nil`: the default one)
    /// on the daemon at `base`.
    package static func url(_ base: URL, route path: String, environment: String?) -> URL {
        let route = environment.map { self.path(path, environment: $0) } ?? path
        return base.appending(path: String(route.dropFirst()))
    }

    /// Whether `name` may name an environment: `[a-z][a-z0-9-]{0,62}`, so that it is a folder
    /// name, an etcd key segment and a URL segment alike.
    package static func isValidName(_ name: some StringProtocol) -> Bool {
        guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
            name.utf8.count <= maxNameLength
        else { return false }
        return name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-")
        }
    }
}
