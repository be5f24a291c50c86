import NIOCore
import NIOPosix
import Synchronization

/// A waiting client's mailbox: holds the newest bundle published since the client last looked.
///
/// Only the newest bundle matters to a long-poll or an event stream, so a slow client never
/// queues up stale bundles: each delivery replaces what is pending.
final class Subscription: Sendable {
    /// What ``next(timeout:)`` returns.
    enum Item: Sendable {
        case bundle(BundleSnapshot)
        case timedOut
        case closed
    }

    private struct State {
        var pending: BundleSnapshot?
        var waiter: CheckedContinuation<Item, Never>?
        var isClosed = false
        /// Counts the waits, so a late timer of an earlier wait cannot end a later one.
        var wait = 0
        var timedOut = false
    }

    let id: Int
    private let state = Mutex(State())
    private let onCancel: @Sendable (Int) -> Void

    init(id: Int, onCancel: @escaping @Sendable (Int) -> Void) {
        self.id = id
        self.onCancel = onCancel
    }

    /// Replaces the pending bundle and wakes the waiter, if any.
    func deliver(_ snapshot: BundleSnapshot) {
        let waiter = state.withLock { state -> CheckedContinuation<Item, Never>? in
            guard !state.isClosed else { return nil }
            guard let waiter = state.waiter else {
                state.pending = snapshot
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .bundle(snapshot))
    }

    /// Ends the subscription: the daemon is shutting down. Pending and future waits see `.closed`.
    func close() {
        let waiter = state.withLock { state in
            state.isClosed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .closed)
    }

    /// Leaves the hub; call once the client is done.
    func cancel() {
        close()
        onCancel(id)
    }

    /// Waits for the next item, at most `timeout`.
    ///
    /// The timeout is a timer on an event loop, not a task: a waiting client costs one suspended
    /// continuation, not a task group with two child tasks (figure 6 of the benchmarks).
    func next(timeout: Duration) async -> Item {
        let wait = state.withLock { state in
            state.wait &+= 1
            state.timedOut = false
            return state.wait
        }
        let (seconds, attoseconds) = timeout.components
        let timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(
            in: .nanoseconds(min(seconds, 1 << 32) * 1_000_000_000 + attoseconds / 1_000_000_000)
        ) { [self] in expire(wait) }
        defer { timer.cancel() }
        return await next()
    }

    /// The timer of wait number `wait` fired: wake that wait with ``Item/timedOut``.
    private func expire(_ wait: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Item, Never>? in
            guard state.wait == wait else { return nil }
            state.timedOut = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .timedOut)
    }

    private func next() async -> Item {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Item? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .bundle(pending)
                    }
                    if state.isClosed { return .closed }
                    if state.timedOut || Task.isCancelled { return .timedOut }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .timedOut)
        }
    }
}
