import HTTPTypes
import Hummingbird
import LiveryHTTP

/// Adds the CORS fields ``LiveryHTTP/CrossOriginPolicy`` decides to every answer the router
/// sends, refusals included (a page or Tokens Studio's plugin reads a 401's reason only with
/// them): the read routes' answers, Tokens Studio's storage, and the `OPTIONS` preflights
/// (answered by the `OPTIONS` routes of ``AllowedMethods``). `BundleRequestHandler` asks the
/// same policy for the answers it sends itself.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CrossOriginPolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let origin = request.headers[.origin]
        let fields =
            request.method == .options
            ? policy.preflightFields(
                origin: origin, requestMethod: request.headers[.accessControlRequestMethod],
                requestHeaders: request.headers[values: .accessControlRequestHeaders].joined(separator: ","),
                path: request.uri.path)
            : policy.answerFields(origin: origin, method: request.method.rawValue, path: request.uri.path)
        guard !fields.isEmpty else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers.add(crossOrigin: fields)
        return response
    }
}

extension HTTPFields {
    /// Adds the fields of a ``LiveryHTTP/CrossOriginPolicy`` decision; `Vary` joins the one
    /// already there (`Accept-Encoding, Origin`).
    mutating func add(crossOrigin fields: [(name: String, value: String)]) {
        for (name, value) in fields {
            guard let name = HTTPField.Name(name) else { continue }  // the policy's names are tokens
            if name == .vary, let existing = self[.vary], !existing.isEmpty {
                self[.vary] = existing + ", " + value
            } else {
                self[name] = value
            }
        }
    }
}
