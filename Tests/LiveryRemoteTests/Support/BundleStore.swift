import Foundation
import LiveryRemote
import Synchronization

/// The in-memory bundle the test daemon serves, changed by the tests.
///
/// The ETag is a strong content hash, as `livery serve` makes it. Handlers subscribe to changes
/// before they read the current bundle, so no change can slip between the two.
final class BundleStore: Sendable {
    private struct State {
        var bundle: String
        var etag: String
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextSubscriber = 0
    }

    private let state: Mutex<State>

    init(bundle: String) {
        state = Mutex(State(bundle: bundle, etag: Self.etag(of: bundle)))
    }

    static func etag(of bundle: String) -> String { "\"\(BodyDigest(Data(bundle.utf8)))\"" }

    /// The current bundle and its ETag.
    var current: (bundle: String, etag: String) {
        state.withLock { ($0.bundle, $0.etag) }
    }

    /// Replaces the bundle and wakes every subscriber.
    func set(_ bundle: String) {
        let subscribers = state.withLock { state in
            state.bundle = bundle
            state.etag = Self.etag(of: bundle)
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield() }
    }

    /// A stream that yields after each change, until ``closeAll()``.
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscription, as a server going down ends its held requests and streams.
    func closeAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
