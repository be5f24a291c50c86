import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/livery.js`: the browser client, an ES module a page imports with no build step
    /// (its source is `Sources/LiveryServer/Resources/livery.js`), with a strong ETag; 304 on a
    /// matching `If-None-Match`.
    func browserClient(_ request: Request) -> Response {
        EmbeddedAsset.browserClient.response(to: request, headers: [.xContentTypeOptions: "nosniff"])
    }

    /// `GET /v1/livery-tuf.js`: the browser client's TUF verification, which `livery.js` loads
    /// when a page follows with `{root}` (`Resources/livery-tuf.js`); as `/v1/livery.js`.
    func browserVerifier(_ request: Request) -> Response {
        EmbeddedAsset.browserVerifier.response(to: request, headers: [.xContentTypeOptions: "nosniff"])
    }
}
