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

    /// Adds every route, and the request metrics, to `router`.
    func register(on router: Router<BasicRequestContext>) {
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLimitsMiddleware(limits: RequestHeadLimits(configuration)))
        router.get("/v1/spec") { request, _ in try await self.bundle(request) }
        router.get("/v1/events") { request, _ in self.events(request) }
        router.get("/v1/specs") { _, _ in await self.listFiles() }
        router.get("/v1/specs/**") { request, _ in await self.getFile(request) }
        router.put("/v1/specs/**") { request, _ in await self.putFile(request) }
        router.delete("/v1/specs/**") { request, _ in await self.deleteFile(request) }
        router.get("/v1/status") { _, _ in self.status() }
        router.get("/healthz") { _, _ in self.health() }
        router.get("/metrics") { _, _ in self.renderMetrics() }
        registerStudio(on: router)
    }

    /// 503 while the folder has never loaded, naming the errors that keep it from loading.
    func unavailable() -> Response {
        let errors = hub.errors
        var headers = HTTPFields()
        headers[.retryAfter] = "1"
        return Problem(
            kind: "no-bundle", title: "No spec loaded yet", status: .serviceUnavailable,
            detail: errors.isEmpty
                ? "the specs folder has not been read yet"
                : "the specs folder does not load: \(errors[0].compilerStyle)",
            errors: errors.isEmpty ? nil : errors
        ).response(headers: headers)
    }

    /// The path after `/v1/specs/`, percent-decoded, exactly as the client sent it: the router
    /// is not trusted to keep `..` or empty segments, which the path rules must see.
    func specPath(of request: Request) -> String? {
        SpecRequestPath.decode(request.uri.path)
    }
}
