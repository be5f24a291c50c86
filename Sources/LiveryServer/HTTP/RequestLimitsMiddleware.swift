import Hummingbird

/// Refuses request heads over the daemon's ``RequestHeadLimits`` before any route runs.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let limits: RequestHeadLimits

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let problem = limits.problem(with: request.head) { return problem.response() }
        return try await next(request, context)
    }
}
