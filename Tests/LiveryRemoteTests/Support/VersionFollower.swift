import AsyncHTTPClient
import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import NIOCore
import NIOHTTP1
import Synchronization

/// A light client of the version protocol, many of which share one `HTTPClient`: `GET
/// /v1/version?since=&wait=&round=`, then the bundle of each new version from the signal when it
/// carries it (a front's), else `GET /v1/spec/{etag}`, in a loop, as
/// ``LiveryRemote/RemoteSpecSource`` does in its version mode, without parsing the spec; after a
/// wait a front ended without news (408), one request without `wait=`.
/// Failures are counted and retried after a short pause. During a staged rollout it applies
/// the version the signal names for its `instance` and sends the signal's `since` back.
final class VersionFollower: Sendable {
    private struct State {
        var etag: String?
        var signal: String?
        var round: String?
        var unheard = false
        var failures = 0
        var signals = 0
        var bundleSource: String?
    }

    private let state = Mutex(State())
    /// The instance name that places the follower in or out of a rollout's cohort.
    let instance: String?
    /// The daemon's environment followed; `nil`: its default one.
    let environment: String?

    init(instance: String? = nil, environment: String? = nil) {
        self.instance = instance
        self.environment = environment
    }

    /// The URL of the daemon's route `path` (`/v1/…`) in the environment followed.
    private func route(_ base: URL, _ path: String) -> String {
        base.absoluteString + (environment.map { EnvironmentPath.path(path, environment: $0) } ?? path)
    }

    /// The ETag of the last bundle fetched (quoted, as the `ETag` header had it).
    var etag: String? { state.withLock { $0.etag } }
    /// Requests that failed (transport errors and unexpected statuses).
    var failures: Int { state.withLock { $0.failures } }
    /// Requests of the version signal sent.
    var signals: Int { state.withLock { $0.signals } }
    /// Where the last bundle came from: ``carried`` (in the signal), else the `X-Cache-Status` of
    /// its fetch (`HIT`: the front had it cached; the shipped front sends it).
    var bundleSource: String? { state.withLock { $0.bundleSource } }
    /// ``bundleSource`` of a bundle the signal carried.
    static let carried = "carried"

    /// Follows `base` until cancelled.
    func follow(_ base: URL, client: HTTPClient, wait: Int) async {
        while !Task.isCancelled {
            do {
                try await step(base, client: client, wait: wait)
            } catch {
                if Task.isCancelled { return }
                state.withLock { $0.failures += 1 }
                try? await Task.sleep(for: .milliseconds(100))  // cancelled: the loop ends
            }
        }
    }

    private func step(_ base: URL, client: HTTPClient, wait: Int) async throws {
        let (etag, signal, round, unheard) = state.withLock { state in
            state.signals += 1
            defer { state.unheard = false }
            return (state.etag, state.signal, state.round, state.unheard)
        }
        let since = (signal ?? etag.map { String($0.dropFirst().dropLast()) }).map { "since=\($0)" }
        let waiting = unheard ? [] : ["wait=\(wait)s"] + (round.map { ["round=\($0)"] } ?? [])
        let signalAnswer = try await client.execute(
            HTTPClientRequest(
                url: "\(route(base, "/v1/version"))?\(([since].compactMap { $0 } + waiting).joined(separator: "&"))"
            ),
            timeout: .seconds(Int64(wait) + 10))  // as the client: the wait and a margin of 10 s
        let body = try await signalAnswer.body.collect(upTo: 4096 + 2 * VersionSignal.carriedBundleBytes)
        switch signalAnswer.status.code {
        case 408:
            state.withLock { $0.unheard = true }
        case 304 where unheard:
            break
        case 304:
            let next = signalAnswer.headers.first(name: "Livery-Round")
            state.withLock { $0.round = next }
            // A new round is a new URL; the same one again, from a cache, answers at once.
            if next == nil || next == round { try await Task.sleep(for: .milliseconds(50)) }
        case 200:
            let answer = try JSONDecoder().decode(VersionSignal.self, from: Data(body.readableBytesView))
            let next = answer.version(for: instance)
            guard next != etag else {
                if answer.since != signal {
                    state.withLock {
                        $0.signal = answer.since
                        $0.round = nil
                    }
                } else {
                    try await Task.sleep(for: .milliseconds(50))
                }
                return
            }
            if answer.carriedBundle(of: next) != nil {
                state.withLock {
                    $0.etag = next
                    $0.bundleSource = Self.carried
                    $0.signal = answer.since
                    $0.round = nil
                }
                return
            }
            let bundle = try await client.execute(
                HTTPClientRequest(url: route(base, "/v1/spec/\(next.dropFirst().dropLast())")),
                timeout: .seconds(10))
            _ = try await bundle.body.collect(upTo: 1 << 20)
            guard bundle.status.code == 200 else { throw Unexpected(status: Int(bundle.status.code)) }
            state.withLock {
                $0.etag = bundle.headers.first(name: "ETag") ?? next
                $0.bundleSource = bundle.headers.first(name: "X-Cache-Status")
                $0.signal = answer.since
                $0.round = nil
            }
        default:
            throw Unexpected(status: Int(signalAnswer.status.code))
        }
    }

    private struct Unexpected: Error {
        var status: Int
    }
}
