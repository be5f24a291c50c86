import AsyncHTTPClient
import Foundation
import Logging
import NIOHTTP1

extension FetchSession {
    /// One conditional GET of the spec file, as any HTTP server understands it.
    ///
    /// `If-None-Match` and `If-Modified-Since` carry the validators of the last 200 (both, when the
    /// server sent both: RFC 9110 lets it prefer the ETag). A 304 means nothing changed. A 200 is
    /// read whole and handed to the gate, which compares digests, so a server that sends no
    /// validators still has every change noticed and unchanged content is not re-published.
    /// Anything else is a failure; its body is never read.
    func poll(every interval: Duration) async throws -> Duration {
        var request = request(url)
        if let etag { request.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified) }
        let response = try await execute(request, timeout: configuration.readTimeout)
        switch response.status.code {
        case 304:
            failures = 0
            logger.trace("not modified", metadata: metadata)
        case 200:
            let body = try await collect(response)
            failures = 0
            etag = response.headers.first(name: "ETag")
            lastModified = response.headers.first(name: "Last-Modified")
            let format = UpdateGate.format(contentType: response.headers.first(name: "Content-Type"), url: url)
            publish(body, etag: etag, lastModified: lastModified, format: format, source: url)
        default:
            throw statusError(response, url: url)
        }
        return interval
    }
}
