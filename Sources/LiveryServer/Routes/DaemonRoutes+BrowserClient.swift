import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/livery.js`: the browser client, an ES module a page imports with no build step
    /// (its source is `Sources/LiveryServer/Resources/livery.js`), with a strong ETag; 304 on a
    /// matching `If-None-Match`.
    func browserClient(_ request: Request) -> Response {
        let script = BrowserClientScript.shared
        var headers = HTTPFields()
        headers[.eTag] = script.etag.description
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        if Self.isNotModified(request, etag: script.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: script.bytes))
    }
}

/// The browser client built into the daemon.
struct BrowserClientScript: Sendable {
    /// The module's bytes, as the package resource holds them.
    let bytes: ByteBuffer
    /// The strong ETag of ``bytes``.
    let etag: EntityTag

    /// The module, read once from the compiled-in resource.
    static let shared = BrowserClientScript(bytes: ByteBuffer(bytes: PackageResources.livery_js))

    init(bytes: ByteBuffer) {
        self.bytes = bytes
        self.etag = EntityTag(of: bytes.readableBytesView)
    }
}
