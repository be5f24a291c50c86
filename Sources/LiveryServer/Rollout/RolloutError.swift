import LiveryHTTP

/// Why a rollout could not be started or changed; `RolloutError+Problem.swift` gives each case its
/// problem kind.
enum RolloutError: Error, Equatable {
    /// A rollout runs (its id) and the push did not ask to replace it.
    case alreadyRunning(String)
    /// No rollout runs.
    case notRunning
    /// `If-Match` names another rollout than the running one.
    case idMismatch(current: String)
    /// The candidate is the stable version: nothing to roll out.
    case candidateIsStable(String)
    /// The daemon has no stable version yet.
    case noStableVersion
    /// Another daemon changed the rollout since this one read it (etcd).
    case changedElsewhere
    /// The store could not keep the rollout, or completing it could not publish the candidate.
    case store(StoreError)
}

/// `GET /v1/rollout`: the last rollout and what its cohort reported.
struct RolloutStatus: Encodable, Sendable {
    /// The cohort's clients as the fleet table and their reports show them.
    struct Cohort: Encodable, Sendable {
        /// Clients heard from lately that are in the cohort.
        var expected: Int
        /// Of those, the ones whose last report says they applied the candidate.
        var applied: Int
        /// Cohort clients that refused the candidate.
        var refused: Int
        /// Cohort clients that reported a problem with it.
        var problems: Int
    }

    var record: RolloutRecord
    var threshold: AbortThreshold
    var cohort: Cohort

    private enum CodingKeys: String, CodingKey {
        case id, percent, stable, candidate, state, startedAt, endedAt, message, abortReason, abortWhen, cohort
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let rollout = record.rollout
        try container.encode(rollout.id, forKey: .id)
        try container.encode(rollout.percent, forKey: .percent)
        try container.encode(rollout.stable, forKey: .stable)
        try container.encode(rollout.candidate, forKey: .candidate)
        try container.encode(rollout.state, forKey: .state)
        try container.encode(record.startedAt, forKey: .startedAt)
        try container.encodeIfPresent(record.endedAt, forKey: .endedAt)
        try container.encode(record.message, forKey: .message)
        try container.encodeIfPresent(record.abortReason, forKey: .abortReason)
        try container.encode(threshold.description, forKey: .abortWhen)
        try container.encode(cohort, forKey: .cohort)
    }
}
