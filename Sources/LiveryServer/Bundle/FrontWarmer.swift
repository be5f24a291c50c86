import AsyncHTTPClient
package import Foundation
package import LiveryHTTP
package import Logging
package import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Tells each shared cache in front of the daemon (`livery serve --warm-front URL`) of a new
/// version signal: it asks for the new version's bundle, `GET /v1/spec/{etag}`, before the
/// signal names it, and then publishes the signal to the front, which answers the clients
/// waiting there at once.
///
/// A front such as the shipped nginx conf queues the requests for an uncached URL behind the
/// one it sends on to a daemon (`proxy_cache_lock`) and wakes them on a timer of up to 500 ms,
/// not when the answer arrives. So the front holds the fleet's waits itself (nchan): a wait
/// with `since=S` is a subscription to the channel `S`, and when the signal moves on from `S`
/// the daemon publishes the new signal, `POST {front}/livery/signal?channel=S`, the body
/// `GET /v1/version` answers carrying the bundles it names
/// (``LiveryHTTP/VersionSignal/bundles``): each waiting client applies the new version from that
/// one answer. A client that does not take a carried bundle (too large to carry, a browser
/// reading the stylesheet, a verifying client's metadata) asks for the version at once: warmed
/// first, that is a cache hit.
///
/// One warmer serves every environment: each hub names the routes that reach its spec set
/// (``FrontWarming``).
///
/// A front that refuses connections is skipped at once (no connection retries). One that
/// answers 404 to the warming (it asked a daemon that has not loaded the version yet) is asked
/// again every 20 ms. Warming and publishing never hold the signal longer than ``bound``,
/// however slow a front is; a front that did not take a publication is sent it again every
/// second until it does (or a later one is published). A front that lost a publication it took
/// (restarted empty) ends its waits after 10 s, and its clients then ask the daemons (see the
/// shipped conf).
package final class FrontWarmer: Service, Sendable {
    /// The longest warming holds the version signal's waits, and publishing it to the fronts
    /// takes: no more than the lock wait it saves.
    package static let bound = Duration.milliseconds(500)

    /// The fronts' publishing location, relative to their base URLs.
    package static let signalPath = "livery/signal"

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

    /// Asks every front for the bundle of each of `versions` (tags as `ETag` shows them), by the
    /// routes of each of `environments` (`nil`: the routes without one), and returns once all
    /// have it, or after ``bound``.
    package func warm(_ versions: [String], environments: [String?]) async {
        guard let http = client.withLock({ $0 }), !versions.isEmpty else { return }
        let deadline = ContinuousClock.now + Self.bound
        let urls = fronts.flatMap { front in
            environments.flatMap { environment in
                versions.map { BundlePath.versionURL(front, form: .bundle, etag: $0, environment: environment) }
            }
        }
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

    /// Publishes `signal`, the body of a `200` from `GET /v1/version` carrying bundles, to every
    /// front's channel of `since` (the `since=` of the signal it follows) in each of
    /// `environments` (`nil`: the routes without one), and returns once all took it, or after
    /// ``bound``. A front that did
    /// not take it is sent it again every ``republishInterval`` meanwhile, until it does or a
    /// later signal is published: a front that was down when the signal changed tells its
    /// clients as soon as it is back.
    package func publish(_ signal: ByteBuffer, since: String, environments: [String?]) async {
        guard let http = client.withLock({ $0 }) else { return }
        let deadline = ContinuousClock.now + Self.bound
        let generation = publications.withLock { count in
            count += 1
            return count
        }
        await withTaskGroup(of: Void.self) { group in
            for front in fronts {
                for channel in environments.map({ Self.channel(since: since, environment: $0) }) {
                    group.addTask {
                        let url = front.appending(path: Self.signalPath).appending(queryItems: [
                            URLQueryItem(name: "channel", value: channel)
                        ])
                        guard await !self.publish(signal, to: url, http: http, until: deadline, warn: true) else {
                            return
                        }
                        Task { await self.republish(signal, to: url, generation: generation) }
                    }
                }
            }
        }
    }

    /// The front's channel of the waits for the signal after `since` on the routes of
    /// `environment`: the shipped conf names it by the path's `environments/NAME/` and the
    /// `since=` of the wait.
    static func channel(since: String, environment: String?) -> String {
        (environment.map { "environments/\($0)/" } ?? "") + since
    }

    /// How often a publication a front did not take is sent again.
    package static let republishInterval = Duration.seconds(1)

    /// Publications so far: a republication stops once a later one began.
    private let publications = Mutex(0)

    /// Sends `signal` to `url` every ``republishInterval`` until the front takes it, a later
    /// publication began or the warmer shut down.
    private func republish(_ signal: ByteBuffer, to url: URL, generation: Int) async {
        while publications.withLock({ $0 }) == generation {
            do {
                try await Task.sleep(for: Self.republishInterval)
            } catch {
                return  // cancelled
            }
            guard publications.withLock({ $0 }) == generation, let http = client.withLock({ $0 }) else { return }
            if await publish(signal, to: url, http: http, until: .now + Self.bound, warn: false) {
                logger.notice("a front took the version signal it had missed", metadata: ["livery.url": "\(url)"])
                return
            }
        }
    }

    /// One publication; whether the front took it. Its failure is logged if `warn`.
    private func publish(
        _ signal: ByteBuffer, to url: URL, http: HTTPClient, until deadline: ContinuousClock.Instant, warn: Bool
    ) async -> Bool {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let readToken { request.headers.add(name: "Authorization", value: readToken.authorizationHeader) }
        request.body = .bytes(signal)
        do {
            let response = try await http.execute(request, deadline: .now() + TimeAmount(deadline - .now))
            for try await _ in response.body {}
            // nchan answers 201 when the channel has subscribers, 202 when it keeps the message.
            if (200..<300).contains(response.status.code) { return true }
            if warn {
                logger.warning(
                    "a front answered the publication of the version signal with \(response.status.code), expected 201 or 202; sent again every second",
                    metadata: ["livery.url": "\(url)"])
            }
        } catch {
            if warn {
                logger.warning(
                    "could not publish the version signal to a front; sent again every second",
                    metadata: ["livery.url": "\(url)", "livery.error": "\(error)"])
            }
        }
        return false
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

/// The warmer as one spec set's hub uses it: the environments whose routes reach the set
/// (`nil`: the routes without one, which address the default environment).
struct FrontWarming: Sendable {
    let warmer: FrontWarmer
    let environments: [String?]

    func warm(_ versions: [String]) async { await warmer.warm(versions, environments: environments) }

    func publish(_ signal: ByteBuffer, since: String) async {
        await warmer.publish(signal, since: since, environments: environments)
    }
}
