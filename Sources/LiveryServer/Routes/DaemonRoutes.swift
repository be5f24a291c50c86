import Foundation
import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// The daemon's HTTP endpoints (the LiveryServer catalog's HTTPAPI.md), bound to the state they serve.
struct DaemonRoutes: Sendable {
    let hub: BundleHub
    let clients: ClientTable
    let writer: SpecWriter
    let rollouts: RolloutKeeper
    let scheduler: Scheduler
    let token: BearerToken
    let metrics: ServerMetrics
    let configuration: DaemonConfiguration
    let logger: Logger
    /// The listing of `GET /v1/specs`, made again only when the store may have changed.
    let listings = VersionedCache<ListingVersion>(capacity: Self.cachedListings)
    /// The bundles of `GET /v1/history/{revision}`, which never change.
    let historicBundles = VersionedCache<Int64>(capacity: Self.cachedRevisions)
    /// Listings kept: the current one.
    static let cachedListings = 1
    /// Historic bundles kept, the most recently read.
    static let cachedRevisions = 16

    /// A version of the store's content as the daemon knows it: the loads its follower applied
    /// and the commits its writer made.
    struct ListingVersion: Hashable, Sendable {
        var loads: Int
        var commits: Int
    }

    /// A route: what answers `method` on `path` (a router pattern), and whether it writes.
    struct Route: Sendable {
        let method: HTTPRequest.Method
        let path: String
        /// Writes go through ``WriteAuthorization``: the push token, then `--read-only`.
        let writes: Bool
        /// Open to every client even with `--read-token-file` (``RequestGate``): the probes and
        /// the studio's own files. Every other route needs the read token when one is set.
        let open: Bool
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response

        init(
            _ method: HTTPRequest.Method, _ path: String, writes: Bool = false, open: Bool = false,
            _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response
        ) {
            self.method = method
            self.path = path
            self.writes = writes
            self.open = open
            self.handler = handler
        }
    }

    /// Every route of the daemon. `HEAD` of each `GET` route is the `GET` without its body
    /// (the router's own rule); `OPTIONS` and the 405s come from this table.
    var routes: [Route] {
        BundlePath.patterns.map { pattern in Route(.get, pattern) { request, _ in self.bundle(request) } } + [
            Route(.post, BundleForm.styleSheet.path, writes: true) { request, _ in
                try await self.styleSheetDryRun(request)
            },
            Route(.get, "/v1/livery.js") { request, _ in self.browserClient(request) },
            Route(.get, "/v1/events") { request, _ in self.events(request) },
            Route(.get, "/v1/specs") { request, _ in try await self.listFiles(request) },
            Route(.get, "/v1/specs/**") { request, _ in try await self.getFile(request) },
            Route(.put, "/v1/specs/**", writes: true) { request, _ in try await self.putFile(request) },
            Route(.delete, "/v1/specs/**", writes: true) { request, _ in try await self.deleteFile(request) },
            Route(.post, "/v1/specs", writes: true) { request, _ in try await self.publish(request) },
            Route(.get, "/v1/history") { request, _ in try await self.history(request) },
            Route(.get, "/v1/history/{revision}") { request, context in
                try await self.historicBundle(request, context: context)
            },
            Route(.post, "/v1/history/{revision}/restore", writes: true) { request, context in
                try await self.restore(request, context: context)
            },
            Route(.get, "/v1/rollout") { _, _ in try self.rolloutStatus() },
            Route(.post, "/v1/rollout", writes: true) { request, _ in try await self.changeRollout(request) },
            Route(.get, "/v1/schedule") { _, _ in try await self.scheduleListing() },
            Route(.post, "/v1/schedule", writes: true) { request, _ in try await self.planChange(request) },
            Route(.delete, "/v1/schedule/{id}", writes: true) { _, context in
                try await self.cancelScheduledChange(context: context)
            },
            Route(.post, CrossOriginPolicy.reportsPath) { request, _ in try await self.report(request) },
            Route(.get, "/v1/status") { request, _ in self.status(request) },
            Route(.get, "/v1/clients") { _, _ in self.clientsStatus() },
            Route(.get, "/v1/traits") { _, _ in self.traitCatalog() },
            Route(.get, "/healthz", open: true) { request, _ in self.health(request) },
            Route(.get, "/readyz", open: true) { request, _ in try self.readiness(request) },
            Route(.get, "/metrics") { _, _ in self.renderMetrics() },
            Route(.get, "/v1/openapi.yaml") { request, _ in self.openAPIDocument(request) },
            Route(.get, "/v1/tokens") { request, _ in try self.tokens(request) },
        ] + studioRoutes + tokensStudioRoutes
    }

    /// Adds every route, the request metrics and limits, the 405 and `OPTIONS` answers, and the
    /// write routes' authorization to `router` (made with `.autoGenerateHeadEndpoints`); returns
    /// the paths of the routes open without the read token, for the ``RequestGate``.
    func register(on router: Router<BasicRequestContext>) -> OpenRoutes {
        let routes = self.routes
        var allowed = AllowedMethods()
        for route in routes { allowed.add(route.method, route.path) }
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLimitsMiddleware(limits: RequestHeadLimits(configuration)))
        router.add(middleware: CrossOriginMiddleware(policy: configuration.allowedOrigins))
        let writes = router.group().add(
            middleware: WriteAuthorization(
                token: token, readOnly: configuration.readOnly,
                served: configuration.etcd == nil ? "the specs folder" : "the specs in etcd"))
        for route in routes {
            if route.writes {
                writes.on(RouterPath(route.path), method: route.method, use: route.handler)
            } else {
                router.on(RouterPath(route.path), method: route.method, use: route.handler)
            }
        }
        allowed.register(on: router)
        return OpenRoutes(routes.filter(\.open).map(\.path))
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
