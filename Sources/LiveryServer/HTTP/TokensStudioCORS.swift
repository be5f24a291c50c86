import Hummingbird

/// The one cross-origin grant the daemon makes: Tokens Studio for Figma runs in a plugin frame of
/// another origin, and its `fetch` sends `Content-Type: application/json` and the storage's
/// custom headers, so the browser asks first (`OPTIONS`) and reads an answer only with
/// `Access-Control-Allow-Origin`. The grant is for any origin but sends no credentials; writes
/// still need the push token, which a page cannot know.
struct TokensStudioCORS<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path == TokensStudioStorage.path else { return try await next(request, context) }
        if request.method == .options {
            var headers = Self.grant
            headers[.accessControlAllowMethods] = "GET, PUT, POST"
            headers[.accessControlAllowHeaders] =
                request.headers[.accessControlRequestHeaders] ?? "Authorization, Content-Type"
            headers[.accessControlMaxAge] = "600"
            headers[.allow] = "GET, HEAD, PUT, POST, OPTIONS"
            headers[.contentLength] = "0"
            return Response(status: .noContent, headers: headers)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        for field in Self.grant { response.headers[field.name] = field.value }
        return response
    }

    private static var grant: HTTPFields {
        [.accessControlAllowOrigin: "*", .accessControlExposeHeaders: "ETag"]
    }
}
