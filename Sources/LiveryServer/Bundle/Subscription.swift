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

    /// The next bundle, or `.timedOut` after `timeout`, or `.closed`.
    func next(timeout: Duration) async -> Item {
        await withTaskGroup(of: Item.self) { group in
            group.addTask { await self.next() }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    // Cancelled because the bundle arrived first: the result is not used.
                }
                return .timedOut
            }
            let first = await group.next() ?? .closed
            group.cancelAll()
            // A bundle taken in the same instant as the timeout must not be lost.
            var result = first
            while let other = await group.next() {
                if case .bundle = other, case .timedOut = result { result = other }
            }
            return result
        }
    }

    /// Waits for a bundle without a deadline; cancellation ends the wait with `.timedOut`.
    private func next() async -> Item {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Item? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .bundle(pending)
                    }
                    if state.isClosed { return .closed }
                    if Task.isCancelled { return .timedOut }
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
