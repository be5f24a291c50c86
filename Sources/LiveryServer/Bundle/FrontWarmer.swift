import AsyncHTTPClient
package import Foundation
package import LiveryHTTP
package import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Asks each shared cache in front of the daemon (`livery serve --warm-front URL`) for a new
/// version's bundle, `GET /v1/spec/{etag}`, before the version signal's held waits name it.
///
/// A front such as the shipped nginx conf queues the requests for an uncached URL behind the
/// one it sends on to a daemon (`proxy_cache_lock`) and wakes them on a timer of up to 500 ms,
/// not when the answer arrives. Every client of the version signal asks for the new version's
/// bundle at once: warmed first, that is a cache hit for all of them, so the only wait behind
/// the lock left is the signal's own.
///
/// A front that refuses connections is skipped at once (no connection retries). One that
/// answers 404 (it asked a daemon that has not loaded the version yet) is asked again every
/// 20 ms. Warming never holds the signal longer than ``bound``, however slow a front is.
package final class FrontWarmer: Service, Sendable {
    /// The longest warming holds the version signal's waits: no more than the lock wait it saves.
    package static let bound = Duration.milliseconds(500)

    /// The fronts' base URLs, as clients reach them.
    package let fronts: [URL]
    private let readToken: BearerToken?
    private let logger: Logger
    /// The client, from ``run()`` until graceful shutdown; warming does nothing without it.
    private let client = Mutex<HTTPClient?>(nil)

    /// A warmer of `fronts` that sends `readToken` (the daemon's own, which the fronts check too).
    package init(fronts: [URL], readToken: BearerToken?, logger: Logger) {
        self.fronts = fronts
        self.readToken = readToken
        self.logger = logger
    }

    /// Keeps an HTTP client for warming until graceful shutdown.
    package func run() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = TimeAmount(Self.bound)
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        client.withLock { $0 = http }
        let ended: Result<Void, any Error>
        do {
            try await gracefulShutdown()
            ended = .success(())
        } catch {
            ended = .failure(error)
        }
        client.withLock { $0 = nil }
        try await http.shutdown()
        try ended.get()
    }

    /// Asks every front for the bundle of each of `versions` (tags as `ETag` shows them) and
    /// returns once all have it, or after ``bound``.
    package func warm(_ versions: [String]) async {
        guard let http = client.withLock({ $0 }), !versions.isEmpty else { return }
        let deadline = ContinuousClock.now + Self.bound
        let urls = fronts.flatMap { front in versions.map { BundlePath.versionURL(front, form: .bundle, etag: $0) } }
        await withTaskGroup(of: URL?.self) { group in
            group.addTask {
                do {
                    try await Task.sleep(until: deadline)
                } catch {
                    // Cancelled: every front answered, and nothing reads this any more.
                }
                return nil
            }
            for url in urls { group.addTask { await self.warm(url, http: http, until: deadline) } }
            var left = Set(urls)
            while let answered = await group.next() {
                guard let answered else {
                    logger.warning(
                        "fronts not warmed within the bound; the version signal goes on without them",
                        metadata: ["livery.urls": "\(left.map(\.absoluteString).sorted())"])
                    break
                }
                left.remove(answered)
                if left.isEmpty { break }
            }
            group.cancelAll()
        }
    }

    /// Asks for `url` until the front answers 200, another status or fails; returns `url`.
    private func warm(_ url: URL, http: HTTPClient, until deadline: ContinuousClock.Instant) async -> URL {
        var request = HTTPClientRequest(url: url.absoluteString)
        if let readToken { request.headers.add(name: "Authorization", value: readToken.authorizationHeader) }
        do {
            while true {
                let response = try await http.execute(request, deadline: .now() + TimeAmount(deadline - .now))
                // The front keeps the bundle once it has read it whole from the daemon.
                for try await _ in response.body {}
                guard response.status.code == 404 else {
                    if response.status.code != 200 {
                        logger.warning(
                            "a front answered the warming of a version with \(response.status.code), expected 200",
                            metadata: ["livery.url": "\(url)"])
                    }
                    return url
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        } catch {
            if !Task.isCancelled {
                logger.warning(
                    "could not warm a front; the version signal goes on without it",
                    metadata: ["livery.url": "\(url)", "livery.error": "\(error)"])
            }
            return url
        }
    }
}
