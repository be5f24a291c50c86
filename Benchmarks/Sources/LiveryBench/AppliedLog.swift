import Dispatch
import Synchronization

/// When each reload finished, recorded from the provider's isolation domain, awaited by the
/// harness thread; and how many updates failed (fetch, parse or load), which are retried.
final class AppliedLog: Sendable {
    private let state = Mutex<(times: [ContinuousClock.Instant], touched: [Int])>(([], []))
    private let failed = Mutex<(count: Int, first: String?)>((0, nil))
    private let signal = DispatchSemaphore(value: 0)

    func record(targetsTouched: Int) {
        let now = ContinuousClock.now
        state.withLock {
            $0.times.append(now)
            $0.touched.append(targetsTouched)
        }
        signal.signal()
    }

    func recordFailure(_ error: any Error) {
        failed.withLock {
            $0.count += 1
            $0.first = $0.first ?? "\(error)"
        }
    }

    /// Updates that were failures, so far.
    var failures: Int { failed.withLock { $0.count } }
    /// The first failure, as it describes itself.
    var firstFailure: String? { failed.withLock { $0.first } }

    var times: [ContinuousClock.Instant] { state.withLock { $0.times } }
    var targetsTouched: [Int] { state.withLock { Array($0.touched.dropFirst()) } }

    func wait(for count: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.times.count }) < count {
            let left = deadline - ContinuousClock.now
            guard left > .zero,
                signal.wait(timeout: .now() + .milliseconds(Int(left.components.seconds * 1000) + 1)) == .success
            else { return state.withLock { $0.times.count } >= count }
        }
        return true
    }
}
