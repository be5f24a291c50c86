import Foundation
import Hummingbird
import Logging

/// The daemon's HTTP endpoints (see DESIGN.md, "HTTP API"), bound to the state they serve.
struct DaemonRoutes: Sendable {
    let hub: BundleHub
    let writer: SpecWriter
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
        router.get("/v1/specs") { _, _ in try await self.listFiles() }
        router.get("/v1/specs/**") { request, _ in try await self.getFile(request) }
        router.get("/v1/history") { request, _ in try await self.history(request) }
        router.get("/v1/history/{revision}") { request, context in try await self.historicBundle(context) }
        router.group()
            .add(
                middleware: WriteAuthorization(
                    token: token, readOnly: configuration.readOnly,
                    served: configuration.etcd == nil ? "the specs folder" : "the specs in etcd"))
            .put("/v1/specs/**") { request, _ in try await self.putFile(request) }
            .delete("/v1/specs/**") { request, _ in try await self.deleteFile(request) }
            .post("/v1/specs") { request, _ in try await self.publish(request) }
            .post("/v1/history/{revision}/restore") { request, context in try await self.restore(request, context: context) }
        router.get("/v1/status") { _, _ in self.status() }
        router.get("/healthz") { _, _ in self.health() }
        router.get("/readyz") { _, _ in try self.readiness() }
        router.get("/metrics") { _, _ in self.renderMetrics() }
    }

    /// 503 while the specs have never loaded, naming the errors that keep them from loading.
    func unavailable() -> Response {
        unavailableProblem().response()
    }

    /// The problem of ``unavailable()``.
    func unavailableProblem() -> Problem {
        let errors = hub.errors
        return Problem(
            kind: "no-bundle", title: "No spec loaded yet", status: .serviceUnavailable,
            detail: errors.isEmpty
                ? "the specs have not been read yet"
                : "the specs do not load: \(errors[0].compilerStyle)",
            errors: errors.isEmpty ? nil : errors, headers: [.retryAfter: "1"])
    }

    /// The path after `/v1/specs/`, percent-decoded, exactly as the client sent it: the router
    /// is not trusted to keep `..` or empty segments, which the path rules must see.
    func specPath(of request: Request) -> String? {
        SpecRequestPath.decode(request.uri.path)
    }
}
