import Hummingbird
import Livery

extension DaemonRoutes {
    /// `GET /v1/tokens`: the current spec's variables as one design tokens document (DTCG Format
    /// Module 2025.10, `application/design-tokens+json`), with a strong ETag of its bytes and a
    /// 304 on a matching `If-None-Match`, like the bundle; `?theme=dark` that theme's variables
    /// (404 for a theme the spec does not define).
    func tokens(_ request: Request) throws(Problem) -> Response {
        guard let spec = hub.snapshot?.spec else {
            return shown(.noBundle(hub.errors), to: request).response()
        }
        let document: SpecNode
        if let theme = request.uri.queryParameters["theme"].map(String.init) {
            do {
                document = try spec.tokensDocument(theme: theme)
            } catch {
                throw Problem(kind: .unknownTheme, detail: error.message)
            }
        } else {
            document = spec.tokensDocument
        }
        let bytes = ByteBuffer(string: document.prettyJSON)
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
