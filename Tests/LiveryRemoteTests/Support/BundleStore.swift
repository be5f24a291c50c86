import Foundation
import LiveryServer
import NIOCore
import Synchronization

/// The in-memory bundle the test daemon serves, changed by the tests: any text, since the
/// client must cope with a bundle that does not load.
///
/// Each bundle is a `BundleSnapshot`, with the tag and fields `livery serve` sends. Handlers
/// subscribe to changes before they read the current bundle, so no change can slip between the
/// two.
final class BundleStore: Sendable {
    private struct State {
        var snapshot: BundleSnapshot
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextSubscriber = 0
    }

    private let state: Mutex<State>

    init(bundle: String) {
        state = Mutex(State(snapshot: BundleSnapshot(bundleJSON: bundle)))
    }

    /// The current bundle.
    var snapshot: BundleSnapshot { state.withLock { $0.snapshot } }

    /// The current bundle's text and its ETag, as a header shows it.
    var current: (bundle: String, etag: String) {
        let snapshot = self.snapshot
        return (String(buffer: snapshot.bytes), snapshot.etag.description)
    }

    /// Replaces the bundle and wakes every subscriber.
    func set(_ bundle: String) {
        let subscribers = state.withLock { state in
            state.snapshot = BundleSnapshot(bundleJSON: bundle)
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
