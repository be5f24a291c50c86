import LiveryHTTP

/// One cohort client's refusal of a rollout's candidate, or its report of a problem with it:
/// what counts towards `--abort-when`. On etcd each is a key of its own,
/// `PREFIX/rollout-reports/<rollout id>/<instance>`, holding this as JSON.
struct RolloutReport: Codable, Hashable, Sendable {
    /// The rollout's id.
    var rollout: String
    /// The client's instance.
    var instance: String
    /// `true`: a problem with the applied candidate; `false`: the candidate was refused.
    var problem: Bool
    /// The client's note on the problem, if any.
    var note: String?

    /// The report `header` makes against `rollout`: `nil` unless its client is in the cohort and
    /// refused the candidate or reported a problem with it (not with another version).
    init?(_ header: LiveryClientHeader, against rollout: Rollout) {
        let candidate = EntityTag.opaque(of: rollout.candidate)
        let refused = header.refused.map { EntityTag.opaque(of: $0) == candidate } == true
        let problem = header.problem.map { EntityTag.opaque(of: $0) == candidate } == true
        guard refused || problem, rollout.includes(instance: header.identity.instance) else { return nil }
        self.rollout = rollout.id
        self.instance = header.identity.instance
        self.problem = problem
        self.note = problem ? header.note : nil
    }

    /// How an abort's reason names the report.
    var description: String {
        problem ? "a problem reported by \(instance)" + (note.map { ": \($0)" } ?? "") : "a refusal by \(instance)"
    }
}
