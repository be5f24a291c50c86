import Hummingbird
import Livery

extension DaemonRoutes {
    /// `GET /v1/tokens`: the current spec's variables as one design tokens document (DTCG Format
    /// Module 2025.10, `application/design-tokens+json`), with a strong ETag of its bytes and a
    /// 304 on a matching `If-None-Match`, like the bundle.
    func tokens(_ request: Request) -> Response {
        guard let spec = hub.snapshot?.spec else {
            return shown(.noBundle(hub.errors), to: request).response()
        }
        let bytes = ByteBuffer(string: spec.tokensDocument.prettyJSON)
        let etag = EntityTag(of: bytes.readableBytesView)
        var headers = HTTPFields()
        headers[.eTag] = etag.description
        headers[.cacheControl] = "no-cache"
        if Self.isNotModified(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = Spec.tokensMediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
