import LiveryHTTP
import Synchronization

/// The current rollout's record and the distinct clients of its cohort that refused the candidate
/// or reported a problem with it, under one lock: ``RolloutKeeper`` changes the record, and the
/// reports are counted as they arrive, from the connections' event loops (folder stores) or from
/// the etcd watch (etcd, where every daemon counts every daemon's reports).
final class RolloutTally: Sendable {
    private struct State {
        var record: RolloutRecord?
        var refused: Set<String> = []
        var problems: Set<String> = []
        /// The instances whose report this daemon has written to etcd (or is writing).
        var sent: Set<String> = []
        /// An abort was started by the reports: do not start another.
        var aborting = false

        var bad: Int { refused.union(problems).count }
    }

    /// The most instances counted as refusing or reporting a problem, and the most whose
    /// report one daemon writes to etcd: the fleet table's bound.
    static let maxCounted = ClientTable.defaultCapacity

    private let state = Mutex(State())

    /// The last rollout (running or ended), if any.
    var record: RolloutRecord? { state.withLock { $0.record } }

    /// The rollout with the cohort's distinct refusing clients and those that reported a problem.
    var counts: (record: RolloutRecord?, refused: Int, problems: Int) {
        state.withLock { ($0.record, $0.refused.count, $0.problems.count) }
    }

    /// Makes `record` the current one; a new rollout starts its counts afresh.
    func remember(_ record: RolloutRecord) {
        state.withLock { state in
            if state.record?.rollout.id != record.rollout.id { state = State() }
            state.record = record
            if record.rollout.state != .running { state.aborting = false }
        }
    }

    /// Whether `report` is already counted.
    func contains(_ report: RolloutReport) -> Bool {
        state.withLock { state in
            state.record?.rollout.id == report.rollout
                && (report.problem ? state.problems : state.refused).contains(report.instance)
        }
    }

    /// Whether this daemon should write `report` to etcd: the first time it sees the instance's
    /// report, within ``maxCounted``.
    func claim(_ report: RolloutReport) -> Bool {
        state.withLock { state in
            guard state.record?.rollout.id == report.rollout, state.sent.count < Self.maxCounted else { return false }
            return state.sent.insert(report.instance).inserted
        }
    }

    /// Lets a later report of the instance be written again (the write failed).
    func release(_ report: RolloutReport) {
        _ = state.withLock { $0.sent.remove(report.instance) }
    }

    /// Counts `report` against the running rollout; when it makes the reports reach `threshold`
    /// of the `expected` cohort clients, marks an abort as started and returns its reason.
    func count(_ report: RolloutReport, threshold: AbortThreshold, expected: Int) -> String? {
        state.withLock { state in
            guard let rollout = state.record?.rollout, rollout.id == report.rollout, rollout.state == .running
            else { return nil }
            let grew: Bool
            if report.problem {
                grew = state.problems.count < Self.maxCounted && state.problems.insert(report.instance).inserted
            } else {
                grew = state.refused.count < Self.maxCounted && state.refused.insert(report.instance).inserted
            }
            guard grew else { return nil }
            return Self.abortReason(&state, threshold: threshold, expected: expected, last: report)
        }
    }

    /// The reason to abort when the reports counted already reach `threshold` and no abort is
    /// under way: after another daemon's change won the race against this daemon's abort.
    func recheck(threshold: AbortThreshold, expected: Int) -> String? {
        state.withLock { state in
            guard state.record?.rollout.state == .running else { return nil }
            return Self.abortReason(&state, threshold: threshold, expected: expected, last: nil)
        }
    }

    /// The abort the reports started did not happen (another daemon changed the rollout first).
    func abortFailed() {
        state.withLock { $0.aborting = false }
    }

    private static func abortReason(
        _ state: inout State, threshold: AbortThreshold, expected: Int, last: RolloutReport?
    ) -> String? {
        let bad = state.bad
        // The clients a daemon heard from are at least those that reported (on etcd, reports
        // arrive from every daemon).
        let expected = max(expected, bad)
        guard !state.aborting, threshold.isReached(bad: bad, expected: expected) else { return nil }
        state.aborting = true
        return "\(bad) of \(expected) cohort clients refused the candidate or reported a problem "
            + "(--abort-when \(threshold))" + (last.map { "; the last, \($0.description)" } ?? "")
    }
}
