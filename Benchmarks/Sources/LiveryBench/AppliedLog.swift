import Dispatch
import Synchronization

/// When each reload finished, recorded from the provider's isolation domain, awaited by the
/// harness thread; and how many updates failed (fetch, parse or load), which are retried.
final class AppliedLog: Sendable {
    private let state = Mutex<(times: [ContinuousClock.Instant], touched: [Int])>(([], []))
    private let failed = Mutex<(count: Int, first: String?, kinds: [String: Int])>((0, nil, [:]))
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
        let text = "\(error)"
        failed.withLock {
            $0.count += 1
            $0.first = $0.first ?? text
            let kind = Self.kind(of: text)
            if $0.kinds[kind] != nil || $0.kinds.count < 8 { $0.kinds[kind, default: 0] += 1 }
        }
    }

    /// The failures by kind (at most 8 kinds), most frequent first: `"412 × kind; 3 × kind"`.
    var failureKinds: String {
        failed.withLock { $0.kinds }.sorted { $0.value > $1.value }.map { "\($0.value) × \($0.key)" }
            .joined(separator: "; ")
    }

    /// A failure's description without what differs between clients: each word with a digit
    /// (numbers, tags, ports, instances) becomes `#`.
    private static func kind(of text: String) -> String {
        var kind = ""
        var word = ""
        for character in text.prefix(200) + " " {
            if character.isLetter || character.isNumber {
                word.append(character)
                continue
            }
            kind += word.contains(where: \.isNumber) ? "#" : word
            word = ""
            kind.append(character)
        }
        return String(kind.dropLast())
    }

    /// Forgets the failures so far: those of a client's start are not the figure's.
    func forgetFailures() {
        failed.withLock { $0 = (0, nil, [:]) }
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
