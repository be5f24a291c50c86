import Hummingbird

/// A file compiled into the daemon (the API document, the browser client, Livery Studio's
/// files), served with a strong ETag of its bytes: 304 on a matching `If-None-Match`.
struct EmbeddedAsset: Sendable {
    /// The file's bytes, as the package resource holds them.
    let bytes: ByteBuffer
    /// The strong ETag of ``bytes``.
    let etag: EntityTag
    /// The `Content-Type` of its 200.
    let contentType: String

    init(bytes: [UInt8], contentType: String) {
        self.bytes = ByteBuffer(bytes: bytes)
        self.etag = EntityTag(of: self.bytes.readableBytesView)
        self.contentType = contentType
    }

    /// The answer to `request`: 200 with the bytes, or 304 when the client has them.
    func response(to request: Request, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.eTag] = etag.description
        headers[.cacheControl] = "no-cache"
        if DaemonRoutes.isNotModified(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }

    /// `openapi.yaml` at the repository root.
    static let openAPIDocument = EmbeddedAsset(bytes: PackageResources.openapi_yaml, contentType: "application/yaml")
    /// The browser client, `Sources/LiveryServer/Resources/livery.js`.
    static let browserClient = EmbeddedAsset(
        bytes: PackageResources.livery_js, contentType: javaScript)
    /// The browser client's verification (`follow(base, {root})`), `Resources/livery-tuf.js`.
    static let browserVerifier = EmbeddedAsset(
        bytes: PackageResources.livery_tuf_js, contentType: javaScript)

    /// The `Content-Type` of a JavaScript module.
    static let javaScript = "text/javascript; charset=utf-8"
}
