import AsyncHTTPClient
import NIOSSL
import Foundation
import Livery
import Logging
import NIOCore

/// The work behind one iteration of a ``RemoteSpecSource``: one HTTP client, one loop of
/// requests in the source's mode, retries with backoff, and the updates it yields.
///
/// It lives inside a single task (it is not `Sendable` and needs no lock): the task runs
/// ``run()``, and cancelling the task cancels the request in flight, ends the loop, shuts the
/// client down and finishes the updates.
final class FetchSession {
    let url: URL
    let mode: RemoteSpecSource.Mode
    let configuration: RemoteSpecSource.Configuration
    let logger: Logger?
    let client: HTTPClient
    let output: AsyncStream<RemoteUpdate>.Continuation
    var gate: UpdateGate
    /// Failures in a row; the backoff grows with it and a success resets it.
    var failures = 0
    /// The last `ETag` and `Last-Modified` seen, for conditional requests.
    var etag: String?
    var lastModified: String?
    /// The event stream's last event ID, sent as `Last-Event-ID` when reconnecting.
    var lastEventID = ""
    /// The reconnection time an event stream asked for with `retry:`.
    var reconnectionTime: Duration?

    init(source: RemoteSpecSource, output: AsyncStream<RemoteUpdate>.Continuation) {
        url = source.url
        mode = source.mode
        configuration = source.configuration
        logger = source.logger
        self.output = output
        gate = UpdateGate(registry: source.registry, limits: source.configuration.limits)
        var http = HTTPClient.Configuration()
        http.timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(source.configuration.connectTimeout),
            read: TimeAmount(source.configuration.readTimeout(for: source.mode))
        )
        http.tlsConfiguration = .livery(trustingCertificatesAt: source.configuration.trustedCertificatesPath)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
    }

    /// Fetches until the task is cancelled, then shuts the client down and ends the updates.
    func run() async {
        logger?.info("following \(url) by \(mode)", metadata: metadata)
        while !Task.isCancelled {
            let delay: Duration
            do {
                delay = try await attempt()
            } catch {
                guard !Task.isCancelled else { break }
                let failure = RemoteError.wrapping(error, url: url.absoluteString)
                failures += 1
                delay = failureDelay()
                logger?.warning("\(failure); retrying in \(delay)", metadata: metadata)
                output.yield(.failed(failure))
            }
            guard delay > .zero else { continue }
            do {
                try await configuration.sleep(delay)
            } catch {
                break  // cancelled while waiting
            }
        }
        do {
            try await client.shutdown()
        } catch {
            logger?.warning("could not shut the HTTP client down: \(error)", metadata: metadata)
        }
        logger?.info("stopped following \(url)", metadata: metadata)
        output.finish()
    }

    /// One request in the source's mode; returns how long to wait before the next one.
    private func attempt() async throws -> Duration {
        switch mode.kind {
        case .poll(let interval): try await poll(every: interval)
        case .longPoll(let wait): try await longPoll(wait: wait)
        case .serverSentEvents: try await followEvents()
        }
    }

    /// The wait after a failure: the backoff, and for polling never less than the interval, so a
    /// failing server is not asked more often than a healthy one.
    private func failureDelay() -> Duration {
        let delay = configuration.backoff.delay(afterFailures: failures)
        if case .poll(let interval) = mode.kind { return max(delay, interval) }
        return delay
    }

    // MARK: Helpers for the modes

    /// A GET of `url` with the configured headers.
    func request(_ url: URL) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        for (name, value) in configuration.headers { request.headers.replaceOrAdd(name: name, value: value) }
        return request
    }

    /// Sends `request`; the timeout covers connecting and waiting for the response head.
    func execute(_ request: HTTPClientRequest, timeout: Duration) async throws -> HTTPClientResponse {
        try await client.execute(request, timeout: TimeAmount(configuration.connectTimeout + timeout), logger: logger)
    }

    /// The whole body, refused past the size limit.
    func collect(_ response: HTTPClientResponse) async throws -> Data {
        let buffer = try await response.body.collect(upTo: configuration.limits.maxBytes)
        return Data(buffer.readableBytesView)
    }

    /// The error for a status the mode cannot use; the body is never read, let alone applied.
    func statusError(_ response: HTTPClientResponse, url: URL) -> RemoteError {
        RemoteError(.status, url: url.absoluteString, status: Int(response.status.code),
                    "the server answered \(response.status.code) \(response.status.reasonPhrase)")
    }

    /// Publishes what the gate makes of a body, and logs it.
    func publish(
        _ body: Data, etag: String?, lastModified: String? = nil, format: SpecFormat, source: URL
    ) {
        guard let update = gate.consider(
            body, etag: etag, lastModified: lastModified, format: format, source: source.absoluteString)
        else {
            logger?.debug("content unchanged", metadata: metadata)
            return
        }
        switch update {
        case .loaded(_, let version): logger?.info("loaded spec \(version)", metadata: metadata)
        case .failed(let error): logger?.error("\(error)", metadata: metadata)
        }
        output.yield(update)
    }

    var metadata: Logger.Metadata { ["livery.remote.url": "\(url)"] }
}
