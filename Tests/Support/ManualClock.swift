public import Foundation
import Synchronization

/// A wall clock a test moves by hand: ``now`` stays where it is until ``advance(by:)``, which
/// wakes every sleeper whose deadline it reached. A daemon given it (its schedule clock) runs a
/// step due in half an hour the moment the test moves the clock there, with no waiting.
public final class ManualClock: Sendable {
    private struct State {
        var now: Date
        var sleepers: [Int: (deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = [:]
        /// Sleepers cancelled before they were registered.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: Mutex<State>

    /// A clock at `now`: by default a whole second, so that times kept to the second are exact.
    public init(now: Date = Date(timeIntervalSince1970: 1_900_000_000)) {
        state = Mutex(State(now: now))
    }

    public var now: Date { state.withLock { $0.now } }

    /// Returns once the clock reaches `deadline`; throws `CancellationError` when cancelled first.
    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = (deadline, continuation)
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return (deadline: Date, continuation: CheckedContinuation<Void, any Error>)?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `seconds` on and wakes the sleepers it reached.
    public func advance(by seconds: TimeInterval) {
        let woken = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }
}
