import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/openapi.yaml`: the daemon's API as an OpenAPI 3.1 document (`openapi.yaml` at the
    /// repository root, compiled in), with a strong ETag of its bytes; 304 on a matching
    /// `If-None-Match`.
    func openAPIDocument(_ request: Request) -> Response {
        EmbeddedAsset.openAPIDocument.response(to: request)
    }
}
