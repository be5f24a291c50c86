import AsyncHTTPClient
import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import NIOHTTP1

extension FetchSession {
    /// The longest answer of `GET /v1/version` read: a ``LiveryHTTP/VersionSignal`` with a
    /// rollout and the metadata of signed delivery, with room (64 KiB), and the bundles a
    /// front's signal carries, escaped.
    static let maxVersionAnswerBytes = 64 * 1024 + 2 * VersionSignal.carriedBundleBytes

    /// One wait for the version signal: `GET /v1/version?since={etag}&wait=Ns&round=R`. The
    /// server answers at once when its version differs from `since`, else when it changes (200,
    /// the new ETag) or the wait ends (304, naming the next round, sent back as `round=` so that
    /// each round is a new URL for caches in between: see ``LiveryHTTP/SignalRound``). A new
    /// version is then fetched from `GET /v1/spec/{etag}`, which never changes, so caches can
    /// keep it for good. A 404 there (the server no longer keeps that version) is a failure like
    /// any other: the next request asks for the current version again.
    ///
    /// While a rollout runs the signal carries it; the client applies the version
    /// ``LiveryHTTP/Rollout/version(for:)`` names for its ``Configuration/identity``'s instance
    /// (the candidate in the cohort, else the stable version) and sends the signal's `since` back,
    /// so that a change of share or an abort answers its next wait at once.
    ///
    /// A front that holds the waits itself (the shipped nginx conf) answers with the signal the
    /// daemon published to it, which carries the bundles it names
    /// (``LiveryHTTP/VersionSignal/bundles``): the version is applied from that one answer when
    /// its bytes are the version's, and fetched otherwise. Such a front answers a wait that ends
    /// without news 408; it may have missed the signal (restarted empty), so the next request
    /// asks without waiting, which such a front passes on to the daemons.
    ///
    /// Verifying (``Configuration/trust``), the signal is not trusted to say that nothing is new:
    /// see ``recheckVerified()``.
    func followVersion(wait: Duration) async throws -> Duration {
        try await recheckVerified()
        let seconds = max(1, Int(wait.seconds.rounded(.up)))
        let waits = !signalUnheard
        signalUnheard = false
        var query = waits ? [URLQueryItem(name: "wait", value: "\(seconds)s")] : []
        if let since = signalTag ?? etag.map(BundlePath.urlForm(of:)) {
            query.insert(URLQueryItem(name: "since", value: since), at: 0)
        }
        if waits, let round = signalRound { query.append(URLQueryItem(name: SignalRound.parameterName, value: round)) }
        let target = EnvironmentPath.url(
            url, route: BundlePath.versionSignalPath, environment: configuration.environment
        )
        .appending(queryItems: query)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await execute(request(target), timeout: wait + configuration.longPollMargin)
        switch response.status.code {
        case 304 where !waits:
            failures = 0
            return .zero
        case 408:
            failures = 0
            signalUnheard = true
            // A front that ends waits at once would otherwise be asked again in a tight loop.
            return clock.now - start < wait / 2 ? configuration.backoff.base : .zero
        case 304:
            failures = 0
            let sent = signalRound
            signalRound = response.headers.first(name: SignalRound.fieldName)
            // A new round is a new URL: ask at once, though a cache may have answered at once.
            if let round = signalRound, round != sent { return .zero }
            // A server that does not hold requests would otherwise be asked again in a tight loop.
            return clock.now - start < wait / 2 ? configuration.backoff.base : .zero
        case 200:
            let body = try await response.body.collect(upTo: Self.maxVersionAnswerBytes)
            let answer: VersionSignal
            do {
                answer = try JSONDecoder().decode(VersionSignal.self, from: Data(body.readableBytesView))
            } catch {
                throw RemoteError(
                    .invalidResponse, url: target.absoluteString, "expected {\"etag\": \"…\"}", underlying: error)
            }
            let version = answer.version(for: configuration.identity.instance)
            let since = answer.since
            signalRound = nil  // rounds are of the wait for one signal
            guard EntityTag.opaque(of: version) != etag.map(EntityTag.opaque(of:)) else {
                // The signal changed and our version did not (a share that leaves us out): wait
                // for the next change. The server naming ours as new: ask again, but not at once.
                guard since == signalTag else {
                    signalTag = since
                    return .zero
                }
                return configuration.backoff.base
            }
            // Until the version is applied, the next request asks without waiting: a front holding
            // the waits may have nothing to answer a wait with (it missed the change), and the
            // failed step (a timestamp a cache kept from before the change) is worth a retry.
            signalUnheard = true
            if case .tuf(let root) = configuration.trust {
                try await fetchVerified(version, root: root, carried: answer)
            } else if let bundle = answer.carriedBundle(of: version) {
                failures = 0
                etag = EntityTag(opaque: EntityTag.opaque(of: version)).description
                publish(Data(bundle.utf8), etag: etag, format: .json, source: target)
            } else {
                try await fetchVersion(version)
            }
            signalUnheard = false
            signalTag = since
            return .zero
        default:
            throw statusError(response, url: target)
        }
    }

    /// `GET /v1/spec/{etag}`: the bundle of one version, handed to the gate.
    private func fetchVersion(_ version: String) async throws {
        let target = BundlePath.versionURL(url, form: .bundle, etag: version, environment: configuration.environment)
        let response = try await execute(request(target), timeout: configuration.readTimeout)
        guard response.status.code == 200 else { throw statusError(response, url: target) }
        let body = try await collect(response)
        failures = 0
        etag = response.headers.first(name: "ETag") ?? version
        publish(body, etag: etag, format: .json, source: target)
    }
}
