import Foundation
import Synchronization

/// What the scheduler's loop waits on: the time of its next step, or a change of the schedule
/// (a new change planned here, another daemon's write), whichever comes first.
final class ScheduleAlarm: Sendable {
    private struct State {
        /// Rung while nobody waited: the next wait returns at once.
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the wait in progress, or the next one.
    func ring() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.rung = true
                return CheckedContinuation<Void, Never>?.none
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at `deadline` on `clock` (never, if `nil`), when rung, or when the task is cancelled.
    func wait(until deadline: Date?, on clock: any ScheduleClock) async {
        let timer = deadline.map { deadline in
            Task { [self] in
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return  // cancelled: the wait ended otherwise
                }
                ring()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard !state.rung else {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
        timer?.cancel()
    }
}
