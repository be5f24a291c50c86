import AsyncHTTPClient
import Foundation
import Livery
import LiveryHTTP
import Logging
import NIOHTTP1

extension FetchSession {
    /// The daemon's bundle, `GET /v1/spec`, relative to the base URL.
    var bundleURL: URL {
        EnvironmentPath.url(url, route: BundleForm.bundle.path, environment: configuration.environment)
    }

    /// One long-poll: `GET /v1/spec?wait=Ns` with `If-None-Match`. The daemon answers at once
    /// when the bundle differs from the ETag sent, else holds the request until it changes
    /// (200) or the wait ends (304); either way the next long-poll follows at once.
    func longPoll(wait: Duration) async throws -> Duration {
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        let target = bundleURL.appending(queryItems: [URLQueryItem(name: "wait", value: "\(seconds)s")])
        var request = request(target)
        if let etag { request.headers.replaceOrAdd(name: "If-None-Match", value: etag) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await execute(request, timeout: wait + configuration.longPollMargin)
        switch response.status.code {
        case 304:
            failures = 0
            // A server that does not hold requests (not the daemon, or a proxy in the way) would
            // otherwise be asked again in a tight loop.
            let early = clock.now - start < wait / 2
            if early { logger.debug("long-poll answered early: pausing", metadata: metadata) }
            return early ? configuration.backoff.base : .zero
        case 200:
            let body = try await collect(response)
            failures = 0
            etag = response.headers.first(name: "ETag")
            publish(body, etag: etag, format: .json, source: bundleURL)
            return .zero
        default:
            throw statusError(response, url: target)
        }
    }
}
