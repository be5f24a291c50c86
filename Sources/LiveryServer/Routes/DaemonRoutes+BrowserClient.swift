import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/livery.js`: the browser client, an ES module a page imports with no build step
    /// (its source is `Sources/LiveryServer/Resources/livery.js`), with a strong ETag; 304 on a
    /// matching `If-None-Match`.
    func browserClient(_ request: Request) -> Response {
        EmbeddedAsset.browserClient.response(to: request, headers: [.xContentTypeOptions: "nosniff"])
    }
}
