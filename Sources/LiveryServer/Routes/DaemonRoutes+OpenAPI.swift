import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/openapi.yaml`: the daemon's API as an OpenAPI 3.1 document, with a strong ETag of
    /// its bytes; 304 on a matching `If-None-Match`.
    func openAPIDocument(_ request: Request) -> Response {
        let document = OpenAPIDocument.shared
        var headers = HTTPFields()
        headers[.eTag] = document.etag.description
        headers[.cacheControl] = "no-cache"
        if EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch])?.matchesWeakly(document.etag) == true
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/yaml"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: document.bytes))
    }
}

/// The OpenAPI document built into the daemon (`openapi.yaml` at the repository root).
struct OpenAPIDocument: Sendable {
    /// The document's bytes, as the package resource holds them.
    let bytes: ByteBuffer
    /// The strong ETag of ``bytes``.
    let etag: EntityTag

    /// The document, read once from the compiled-in resource.
    static let shared = OpenAPIDocument(bytes: ByteBuffer(bytes: PackageResources.openapi_yaml))

    init(bytes: ByteBuffer) {
        self.bytes = bytes
        self.etag = EntityTag(of: bytes.readableBytesView)
    }
}
