import Hummingbird

/// Counts every request by route, method and status, and records its latency.
///
/// The route is the matched pattern (`/v1/specs/**`), never the raw path, so a scanner cannot
/// blow up the number of series. Requests that match no route count as `unmatched`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let route = context.endpointPath ?? "unmatched"
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                route: route, method: request.method.rawValue, status: response.status.code, duration: .now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: route, method: request.method.rawValue, status: status, duration: .now - start)
            throw error
        }
    }
}
