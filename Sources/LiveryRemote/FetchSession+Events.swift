import AsyncHTTPClient
import Foundation
import Livery
import LiveryHTTP
import Logging
import NIOCore
import NIOHTTP1

extension FetchSession {
    /// The daemon's event stream, `GET /v1/events`, relative to the base URL.
    var eventsURL: URL { EnvironmentPath.url(url, route: "/v1/events", environment: configuration.environment) }

    /// One connection to the event stream, read until it ends.
    ///
    /// Each `spec` event carries a whole bundle (its `id:` is the bundle's ETag), handed to the
    /// gate. Reconnections send `Last-Event-ID`, so the daemon sends only a newer bundle. A
    /// silence of three heartbeats is the client's read timeout: the connection counts as dead
    /// and is replaced, after the backoff. A stream that ends cleanly (a daemon shutting down) is
    /// reconnected after the server's `retry:` time, or the backoff's base.
    func followEvents() async throws -> Duration {
        var request = request(eventsURL)
        request.headers.replaceOrAdd(name: "Accept", value: "text/event-stream")
        request.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        if !lastEventID.isEmpty { request.headers.replaceOrAdd(name: "Last-Event-ID", value: lastEventID) }
        let response = try await execute(request, timeout: configuration.readTimeout(for: mode))
        guard response.status.code == 200 else { throw statusError(response, url: eventsURL) }
        let contentType = response.headers.first(name: "Content-Type") ?? ""
        guard contentType.lowercased().hasPrefix("text/event-stream") else {
            throw RemoteError(
                .invalidResponse, url: eventsURL.absoluteString,
                "expected an event stream, got Content-Type '\(contentType)'")
        }
        var parser = ServerSentEventParser(maxBytes: configuration.limits.maxBytes, lastEventID: lastEventID)
        var receivedAnything = false
        for try await chunk in response.body {
            if !receivedAnything, chunk.readableBytes > 0 {
                receivedAnything = true
                failures = 0  // the stream is alive: the outage, if there was one, is over
            }
            let events: [ServerSentEvent]
            do {
                events = try parser.feed(chunk.readableBytesView)
            } catch {
                throw RemoteError(
                    .tooLarge, url: eventsURL.absoluteString,
                    "an event is larger than \(configuration.limits.maxBytes) bytes")
            }
            lastEventID = parser.lastEventID
            reconnectionTime = parser.reconnectionTime ?? reconnectionTime
            for event in events { handle(event) }
        }
        guard receivedAnything else {
            // Counted as a failure so a server that keeps closing at once is backed off from.
            throw RemoteError(.unreachable, url: eventsURL.absoluteString, "the event stream ended before any data")
        }
        logger.info("event stream ended; reconnecting", metadata: metadata)
        return reconnectionTime ?? configuration.backoff.base
    }

    private func handle(_ event: ServerSentEvent) {
        guard event.type == "spec" else {
            logger.debug(
                "ignoring an event of another type",
                metadata: metadata.merging(["livery.event": "\(event.type)"]) { $1 })
            return
        }
        let etag = event.lastEventID.isEmpty ? nil : event.lastEventID
        publish(Data(event.data.utf8), etag: etag, format: .json, source: eventsURL)
    }
}
