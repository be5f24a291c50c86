import AsyncHTTPClient
import Foundation
import Livery
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// The work behind one iteration of a ``RemoteSpecSource``: one HTTP client, one loop of
/// requests in the source's mode, retries with backoff, and the updates it yields.
///
/// It lives inside a single task (it is not `Sendable` and needs no lock): the task runs
/// ``run()``, and cancelling the task cancels the request in flight, ends the loop, shuts the
/// client down and finishes the updates.
final class FetchSession {
    let endpoints: [URL]
    /// Which endpoint requests go to now; a failure moves on to the next.
    var endpointIndex = 0
    let mode: RemoteSpecSource.Mode
    let configuration: RemoteSpecSource.Configuration
    let logger: Logger
    let client: HTTPClient
    let output: AsyncStream<RemoteUpdate>.Continuation
    let appliedVersion: AppliedVersion
    let cache: BundleCache?
    /// Writes the cache when the consumer records a bundle as applied.
    let keeper: AppliedBundleKeeper?
    /// Sends refusals and problem reports at once, in the version mode (the one rollouts reach).
    let reporter: ReportSender?
    var gate: UpdateGate
    /// Failures in a row, on any endpoint; the backoff grows with the rounds of them (each
    /// endpoint failed once) and a success resets it.
    var failures = 0
    /// The last `ETag` and `Last-Modified` seen, for conditional requests.
    var etag: String?
    var lastModified: String?
    /// The event stream's last event ID, sent as `Last-Event-ID` when reconnecting.
    var lastEventID = ""
    /// The reconnection time an event stream asked for with `retry:`.
    var reconnectionTime: Duration?
    /// The version signal's next round, from its last 304 (``LiveryHTTP/SignalRound``).
    var signalRound: String?
    /// What the version signal last said while it carried a rollout (its `since`), sent back as
    /// `since=`; `nil` without a rollout, when ``etag`` is sent.
    var signalTag: String?
    /// The next request for the version signal asks without waiting: a front's wait ended
    /// without news (408), and the front may have missed the signal.
    var signalUnheard = false
    /// A version handed over whose outcome the consumer has not recorded yet: the next request
    /// waits for it, so its `Livery-Client` header reports what is applied.
    var unsettled: BodyDigest?

    init(source: RemoteSpecSource, output: AsyncStream<RemoteUpdate>.Continuation) {
        endpoints = source.endpoints
        mode = source.mode
        configuration = source.configuration
        logger = source.logger
        appliedVersion = source.appliedVersion
        cache = source.configuration.cacheDirectory.map {
            BundleCache(folder: $0, maxBytes: source.configuration.limits.maxBytes)
        }
        keeper = cache.map { AppliedBundleKeeper(cache: $0, output: output, logger: source.logger) }
        self.output = output
        gate = UpdateGate(
            registry: source.registry, limits: source.configuration.limits,
            unknownTraits: source.configuration.unknownTraits)
        var http = HTTPClient.Configuration()
        http.timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(source.configuration.connectTimeout),
            read: TimeAmount(source.configuration.readTimeout(for: source.mode))
        )
        http.tlsConfiguration = .livery(trustingCertificatesAt: source.configuration.trustedCertificatesPath)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
        if case .version = source.mode.kind {
            reporter = ReportSender(
                client: client, endpoint: endpoints[0], configuration: source.configuration, logger: source.logger)
        } else {
            reporter = nil
        }
    }

    /// The endpoint requests go to now.
    var url: URL { endpoints[endpointIndex] }

    /// Fetches until the task is cancelled, then shuts the client down and ends the updates.
    func run() async {
        logger.info("following a remote spec", metadata: metadata.merging(["livery.remote.mode": "\(mode)"]) { $1 })
        if let keeper { appliedVersion.attach(keeper) }
        if let reporter { appliedVersion.attach(reporter) }
        defer {
            if let keeper { appliedVersion.detach(keeper) }
            if let reporter { appliedVersion.detach(reporter) }
        }
        startFromCache()
        while !Task.isCancelled {
            if let digest = unsettled {
                unsettled = nil
                await appliedVersion.waitUntilSettled(digest, limit: AppliedVersion.settleLimit)
            }
            let delay: Duration
            do {
                delay = try await attempt()
            } catch let busy as ServerBusy {
                delay = min(busy.retryAfter, configuration.backoff.cap)
                logger.notice(
                    "server busy",
                    metadata: metadata.merging([
                        "livery.remote.error": "\(busy.error)", "livery.remote.retryIn": "\(delay)",
                    ]) { $1 })
            } catch {
                guard !Task.isCancelled else { break }
                let failure = RemoteError.wrapping(error, url: url.absoluteString)
                failures += 1
                delay = failureDelay()
                logger.warning(
                    "request failed",
                    metadata: metadata.merging([
                        "livery.remote.error": "\(failure)", "livery.remote.retryIn": "\(delay)",
                    ]) { $1 })
                output.yield(.failed(failure))
                moveToNextEndpoint()
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
            logger.warning(
                "could not shut the HTTP client down",
                metadata: metadata.merging(["livery.remote.error": "\(error)"]) { $1 })
        }
        logger.info("stopped following a remote spec", metadata: metadata)
        output.finish()
    }

    /// One request in the source's mode; returns how long to wait before the next one.
    private func attempt() async throws -> Duration {
        switch mode.kind {
        case .poll(let interval): try await poll(every: interval)
        case .longPoll(let wait): try await longPoll(wait: wait)
        case .serverSentEvents: try await followEvents()
        case .version(let wait): try await followVersion(wait: wait)
        }
    }

    /// The wait after a failure: none while some endpoint has not failed in this round, else
    /// the backoff for the number of rounds, and for polling never less than the interval, so a
    /// failing server is not asked more often than a healthy one.
    private func failureDelay() -> Duration {
        guard failures % endpoints.count == 0 else { return .zero }
        let delay = configuration.backoff.delay(afterFailures: failures / endpoints.count)
        if case .poll(let interval) = mode.kind { return max(delay, interval) }
        return delay
    }

    /// Moves on to the next endpoint, keeping the validators: an unchanged bundle is a 304 there.
    private func moveToNextEndpoint() {
        guard endpoints.count > 1 else { return }
        let from = url
        endpointIndex = (endpointIndex + 1) % endpoints.count
        reporter?.move(to: url)
        logger.notice(
            "switching endpoint",
            metadata: [
                "livery.remote.from": "\(from)", "livery.remote.url": "\(url)",
            ])
    }

    // MARK: Helpers for the modes

    /// A GET of `url` with the configured headers.
    func request(_ url: URL) -> HTTPClientRequest {
        configuration.request(.GET, url, reporting: appliedVersion.header(for: configuration.identity))
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
    /// A server shedding load with `Retry-After` is ``ServerBusy``, not a failure.
    func statusError(_ response: HTTPClientResponse, url: URL) -> any Error {
        let error = RemoteError(
            .status, url: url.absoluteString, status: Int(response.status.code),
            "the server answered \(response.status.code) \(response.status.reasonPhrase)")
        return ServerBusy(response, error: error) ?? error
    }

    /// Publishes what the gate makes of a body, logs it, and offers a spec that parsed to the
    /// offline cache, which keeps it once the consumer records it as applied.
    func publish(
        _ body: Data, etag: String?, lastModified: String? = nil, format: SpecFormat, source: URL
    ) {
        guard
            let update = gate.consider(
                body, etag: etag, lastModified: lastModified, format: format, source: source.absoluteString,
                endpoint: url)
        else {
            logger.debug("content unchanged", metadata: metadata)
            return
        }
        switch update {
        case .loaded(_, let version):
            logger.info("loaded spec", metadata: metadata.merging(["livery.remote.version": "\(version)"]) { $1 })
            keeper?.offer(
                BundleCache.Entry(body: body, etag: etag, lastModified: lastModified, format: format),
                digest: version.digest)
            unsettled = version.digest
            output.yield(update)
        case .failed(let error):
            if let etag { appliedVersion.recordUnreadable(etag: etag) }
            logger.error("spec rejected", metadata: metadata.merging(["livery.remote.error": "\(error)"]) { $1 })
            output.yield(update)
        }
    }

    var metadata: Logger.Metadata { ["livery.remote.url": "\(url)"] }
}
