import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP

/// The daemon's routes as the router serves them: each route of a spec set twice, at its path
/// for the default environment and at `/v1/environments/{environment}/…`, each other route
/// once. One table, so that both prefixes always serve the same routes.
struct RouteTable: Sendable {
    /// One served route: the route at `path`, for the environment its request names
    /// (`addressesEnvironment`) or for the default one.
    struct Entry: Sendable {
        let route: DaemonRoutes.Route
        let path: String
        let addressesEnvironment: Bool
    }

    let entries: [Entry]
    private let shared: DaemonRoutes.Shared

    init(_ shared: DaemonRoutes.Shared) {
        self.shared = shared
        entries = DaemonRoutes.routes(shared.configuration).flatMap { route in
            [Entry(route: route, path: route.path, addressesEnvironment: false)]
                + (route.isPerEnvironment
                    ? [
                        Entry(
                            route: route, path: EnvironmentPath.path(route.path, environment: nil),
                            addressesEnvironment: true)
                    ] : [])
        }
    }

    /// Adds every route, the request metrics and limits, the 405 and `OPTIONS` answers, and each
    /// route's authorization (``KeyAuthorization``) to `router` (made with `.autoGenerateHeadEndpoints`).
    func register(on router: Router<BasicRequestContext>) {
        var allowed = AllowedMethods()
        for entry in entries { allowed.add(entry.route.method, entry.path) }
        let configuration = shared.configuration
        router.add(
            middleware: RequestMetricsMiddleware(
                metrics: shared.metrics, environments: shared.environments,
                defaultEnvironmentRoutes: Set(
                    entries.filter { $0.route.isPerEnvironment && !$0.addressesEnvironment }.map {
                        RouterPath($0.path).description
                    })))
        router.add(middleware: RequestLimitsMiddleware(limits: RequestHeadLimits(configuration)))
        router.add(middleware: CrossOriginMiddleware(policy: configuration.allowedOrigins))
        let served = configuration.etcd == nil ? "the specs folder" : "the specs in etcd"
        for entry in entries {
            router.group()
                .add(
                    middleware: KeyAuthorization(
                        rule: shared.access, scope: entry.route.scope,
                        readOnly: configuration.readOnly && entry.route.writes, served: served)
                )
                .on(RouterPath(entry.path), method: entry.route.method, use: handler(of: entry))
        }
        allowed.register(
            on: router, refusals: KeyAuthorization(rule: shared.access, scope: .read, readOnly: false, served: served))
    }

    /// The route's handler: bound to the environment its path names, else to the default one
    /// (a daemon-wide route: else to any, its answer being about the daemon).
    private func handler(of entry: Entry) -> @Sendable (Request, BasicRequestContext) async throws -> Response {
        let (shared, addresses) = (shared, entry.addressesEnvironment)
        let environments = shared.environments
        switch entry.route.answer {
        case .registry(let handler):
            return { request, context in try await handler(shared, request, context) }
        case .daemon(let handler):
            return { request, context in
                let set = try environments.defaultSet ?? environments.all.first ?? environments.resolve(String?.none)
                return try await handler(shared.bound(to: set), request, context)
            }
        case .environment(let handler):
            return { request, context in
                let name = addresses ? context.parameters.get(EnvironmentPath.parameter) : nil
                return try await handler(shared.bound(to: try environments.resolve(name)), request, context)
            }
        }
    }
}
