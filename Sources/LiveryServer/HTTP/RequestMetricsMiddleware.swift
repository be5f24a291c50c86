import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP

/// Counts every request by environment, route, method and status, and records its latency.
///
/// The route is the matched pattern (`/v1/specs/**`), never the raw path, and the environment
/// one the daemon has, never a name as the request spelled it, so a scanner cannot blow up the
/// number of series. Requests that match no route count as `unmatched`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let environments: Environments
    /// The routes of a spec set at their paths without an environment: they address the default one.
    let defaultEnvironmentRoutes: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let route = context.endpointPath ?? "unmatched"
        let environment = environment(of: route, context: context)
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                route: route, environment: environment, method: request.method.rawValue,
                status: response.status.code, duration: .now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(
                route: route, environment: environment, method: request.method.rawValue, status: status,
                duration: .now - start)
            throw error
        }
    }

    /// The environment `route` addresses, by name: the one its path names or, at a spec set's
    /// path without one, the default one; empty for a route about the daemon, or when the
    /// environment does not exist (a 404).
    private func environment(of route: String, context: Context) -> String {
        if let name = context.parameters.get(EnvironmentPath.parameter) {
            return environments.named(name)?.name ?? ""
        }
        return defaultEnvironmentRoutes.contains(route) ? environments.defaultSet?.name ?? "" : ""
    }
}
