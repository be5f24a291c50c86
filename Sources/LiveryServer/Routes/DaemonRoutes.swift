import Foundation
import Hummingbird
import Logging

/// The daemon's HTTP endpoints (see DESIGN.md, "HTTP API"), bound to the state they serve.
struct DaemonRoutes: Sendable {
    let hub: BundleHub
    let store: SpecStore
    let token: BearerToken
    let metrics: ServerMetrics
    let configuration: DaemonConfiguration
    let logger: Logger

    /// A route: what answers `method` on `path` (a router pattern).
    typealias Route = (method: HTTPRequest.Method, path: String, handler: @Sendable (Request) async -> Response)

    /// Every route of the daemon. `HEAD` of each `GET` route is the `GET` without its body
    /// (the router's own rule); `OPTIONS` and the 405s come from this table.
    var routes: [Route] {
        [
            (.get, "/v1/spec", { self.bundle($0) }),
            (.get, "/v1/events", { self.events($0) }),
            (.get, "/v1/specs", { await self.listFiles($0) }),
            (.get, "/v1/specs/**", { await self.getFile($0) }),
            (.put, "/v1/specs/**", { await self.putFile($0) }),
            (.delete, "/v1/specs/**", { await self.deleteFile($0) }),
            (.get, "/v1/status", { _ in self.status() }),
            (.get, "/healthz", { _ in self.health() }),
            (.get, "/metrics", { _ in self.renderMetrics() }),
        ]
    }

    /// Adds every route, the request metrics and limits, and the 405 and `OPTIONS` answers to
    /// `router` (made with `.autoGenerateHeadEndpoints`).
    func register(on router: Router<BasicRequestContext>) {
        let routes = self.routes
        var allowed = AllowedMethods()
        for route in routes { allowed.add(route.method, route.path) }
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLimitsMiddleware(limits: RequestHeadLimits(configuration)))
        router.add(middleware: AllowedMethodsMiddleware(allowed: allowed))
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, _ in await route.handler(request) }
        }
    }

    /// The path after `/v1/specs/`, percent-decoded, exactly as the client sent it: the router
    /// is not trusted to keep `..` or empty segments, which the path rules must see.
    func specPath(of request: Request) -> String? {
        SpecRequestPath.decode(request.uri.path)
    }
}
