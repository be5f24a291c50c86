import Synchronization

/// A first-come, first-served lock for async code: ``lock()`` waits (without blocking a thread)
/// until every earlier holder has called ``unlock()``, and gives up with `CancellationError` when
/// its task is cancelled while it waits, leaving its place in the queue to the next waiter.
final class AsyncMutex: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var locked = false
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Waits for the lock; throws `CancellationError`, without taking it, if the task is (or
    /// becomes) cancelled before the lock is its own.
    func lock() async throws(CancellationError) {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    enum Outcome { case acquired, cancelled, queued }
                    let outcome = state.withLock { state -> Outcome in
                        // A cancellation that came before this point found nothing to remove:
                        // the task's flag is already set, so it is seen here.
                        if Task.isCancelled { return .cancelled }
                        guard state.locked else {
                            state.locked = true
                            return .acquired
                        }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return .queued
                    }
                    switch outcome {
                    case .acquired: continuation.resume()
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    case .queued: break
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        } catch {
            throw CancellationError()
        }
    }

    /// Hands the lock to the next waiter, or frees it.
    func unlock() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
