import Foundation
import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// The daemon's HTTP endpoints (the LiveryServer catalog's HTTPAPI.md), bound to the
/// environment they serve (``SpecSet``) and to what the daemon shares between environments.
struct DaemonRoutes: Sendable {
    /// What the routes of every environment share.
    struct Shared: Sendable {
        let environments: Environments
        /// Who may call what (``KeyAuthorization``), and the keys' own routes.
        let access: AccessRule
        let keys: KeyKeeper
        let metrics: ServerMetrics
        let configuration: DaemonConfiguration
        let logger: Logger

        /// The routes bound to the environment `set`.
        func bound(to set: SpecSet) -> DaemonRoutes { DaemonRoutes(shared: self, specSet: set) }
    }

    let shared: Shared
    /// The environment the request addresses.
    let specSet: SpecSet
    /// Listings kept: the current one.
    static let cachedListings = 1
    /// Historic bundles kept, the most recently read.
    static let cachedRevisions = 16

    var environments: Environments { shared.environments }
    var access: AccessRule { shared.access }
    var keys: KeyKeeper { shared.keys }
    var metrics: ServerMetrics { shared.metrics }
    var configuration: DaemonConfiguration { shared.configuration }
    var logger: Logger { shared.logger }
    var hub: BundleHub { specSet.hub }
    var clients: ClientTable { specSet.clients }
    var writer: SpecWriter { specSet.writer }
    var rollouts: RolloutKeeper { specSet.rollouts }
    /// The listing of `GET /v1/specs`, made again only when the store may have changed.
    var listings: VersionedCache<ListingVersion> { specSet.listings }
    /// The bundles of `GET /v1/history/{revision}`, which never change.
    var historicBundles: VersionedCache<Int64> { specSet.historicBundles }

    /// A version of the store's content as the daemon knows it: the loads its follower applied
    /// and the commits its writer made.
    struct ListingVersion: Hashable, Sendable {
        var loads: Int
        var commits: Int
    }

    /// What a route answers, given the routes bound to the environment the request addresses.
    typealias Handler = @Sendable (DaemonRoutes, Request, BasicRequestContext) async throws -> Response
    /// What a route about the environments themselves answers: it needs none of them.
    typealias RegistryHandler = @Sendable (Shared, Request, BasicRequestContext) async throws -> Response

    /// A route: what answers `method` on `path` (a router pattern), and the scope a key needs
    /// to call it (``KeyAuthorization``).
    struct Route: Sendable {
        let method: HTTPRequest.Method
        let path: String
        /// What a key needs to call the route: `read` (open to all unless the daemon requires a
        /// key to read) by default; `nil` for the routes open to every client, the probes and
        /// the studio's own files.
        let scope: KeyScope?
        /// Whether the route changes what clients apply (its scope's, or an environment's
        /// creation or removal), which `--read-only` refuses.
        let writes: Bool
        let answer: Answer

        /// Which environment a route answers for.
        enum Answer: Sendable {
            /// A route of a spec set, served at its path for the default environment and at
            /// `/v1/environments/{environment}/…` (``LiveryHTTP/EnvironmentPath``) for each.
            case environment(Handler)
            /// A route of the daemon as a whole, served once, bound to the default environment
            /// (or any, without it).
            case daemon(Handler)
            /// A route about the environments, served once.
            case registry(RegistryHandler)
        }

        /// A route of each environment, or with `daemonWide` of the daemon as a whole; `writes`
        /// for a route whose handler checks the scope of the write it makes (the schedule's).
        init(
            _ method: HTTPRequest.Method, _ path: String, scope: KeyScope? = .read, writes: Bool? = nil,
            daemonWide: Bool = false, _ handler: @escaping Handler
        ) {
            self.init(
                method, path, scope: scope, writes: writes ?? scope?.changesSpecs ?? false,
                answer: daemonWide ? .daemon(handler) : .environment(handler))
        }

        /// A route about the environments themselves.
        init(
            _ method: HTTPRequest.Method, _ path: String, scope: KeyScope, writes: Bool = false,
            registry: @escaping RegistryHandler
        ) {
            self.init(method, path, scope: scope, writes: writes, answer: .registry(registry))
        }

        private init(_ method: HTTPRequest.Method, _ path: String, scope: KeyScope?, writes: Bool, answer: Answer) {
            self.method = method
            self.path = path
            self.scope = scope
            self.writes = writes
            self.answer = answer
        }

        /// Served for each environment.
        var isPerEnvironment: Bool {
            if case .environment = answer { true } else { false }
        }
    }

    /// Every route of the daemon, each once. `HEAD` of each `GET` route is the `GET` without its
    /// body (the router's own rule); `OPTIONS` and the 405s come from the table.
    static func routes(_ configuration: DaemonConfiguration) -> [Route] {
        BundlePath.patterns.map { pattern in Route(.get, pattern) { routes, request, _ in routes.bundle(request) } } + [
            Route(.post, BundleForm.styleSheet.path, scope: .push) { routes, request, _ in
                try await routes.styleSheetDryRun(request)
            },
            Route(.get, "/v1/livery.js", daemonWide: true) { routes, request, _ in routes.browserClient(request) },
            Route(.get, "/v1/livery-tuf.js", daemonWide: true) { routes, request, _ in routes.browserVerifier(request)
            },
            Route(.get, "/v1/events") { routes, request, _ in routes.events(request) },
            Route(.get, "/v1/specs") { routes, request, _ in try await routes.listFiles(request) },
            Route(.get, "/v1/specs/**") { routes, request, _ in try await routes.getFile(request) },
            Route(.put, "/v1/specs/**", scope: .push) { routes, request, _ in try await routes.putFile(request) },
            Route(.delete, "/v1/specs/**", scope: .push) { routes, request, _ in try await routes.deleteFile(request) },
            Route(.post, "/v1/specs", scope: .push) { routes, request, _ in try await routes.publish(request) },
            Route(.get, "/v1/history") { routes, request, _ in try await routes.history(request) },
            Route(.get, "/v1/history/{revision}") { routes, request, context in
                try await routes.historicBundle(request, context: context)
            },
            Route(.post, "/v1/history/{revision}/restore", scope: .push) { routes, request, context in
                try await routes.restore(request, context: context)
            },
            Route(.get, "/v1/rollout") { routes, _, _ in try routes.rolloutStatus() },
            Route(.post, "/v1/rollout", scope: .rollout) { routes, request, _ in
                try await routes.changeRollout(request)
            },
            Route(.post, CrossOriginPolicy.reportsPath) { routes, request, _ in try await routes.report(request) },
            Route(.get, "/v1/status") { routes, request, _ in routes.status(request) },
            Route(.get, "/v1/clients") { routes, _, _ in routes.clientsStatus() },
            Route(.get, "/v1/traits", daemonWide: true) { routes, _, _ in routes.traitCatalog() },
            Route(.get, "/healthz", scope: nil, daemonWide: true) { routes, request, _ in routes.health(request) },
            Route(.get, "/readyz", scope: nil, daemonWide: true) { routes, request, _ in
                try routes.readiness(request)
            },
            Route(.get, "/metrics", daemonWide: true) { routes, _, _ in routes.renderMetrics() },
            Route(.get, "/v1/openapi.yaml", daemonWide: true) { routes, request, _ in routes.openAPIDocument(request) },
            Route(.get, "/v1/tokens") { routes, request, _ in try routes.tokens(request) },
        ] + ofrepRoutes + studioRoutes(configuration) + tokensStudioRoutes + promotionRoutes + tufRoutes
            + scheduleRoutes + changeRoutes + environmentRoutes + keyRoutes
    }

    /// Whether the request's `If-None-Match` names `etag`, compared weakly as for every GET.
    static func isNotModified(_ request: Request, etag: EntityTag) -> Bool {
        EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch])?.matchesWeakly(etag) == true
    }

    /// The path after `/v1/specs/`, percent-decoded, exactly as the client sent it: the router
    /// is not trusted to keep `..` or empty segments, which the path rules must see.
    func specPath(of request: Request) -> String? {
        SpecRequestPath.decode(request.uri.path)
    }
}
