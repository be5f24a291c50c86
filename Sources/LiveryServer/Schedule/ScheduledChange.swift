import Foundation

/// One change the daemon makes at set times, as the store keeps it (``ScheduleStore``) and
/// `GET /v1/schedule` lists it: a push, a rollout share change, a progressive rollout, or a
/// promotion, with its steps and what became of each.
struct ScheduledChange: Codable, Hashable, Sendable {
    /// What the change does.
    enum Kind: String, Codable, Sendable {
        /// Publishes ``files`` at its one step.
        case push
        /// Sets the running rollout's share at its one step.
        case rollout
        /// Starts a rollout of ``files`` at the first step's share, widens it at each next step,
        /// and completes it at the last (100 %).
        case progressive
        /// Makes the environment's files exactly ``files`` at its one step (the files added,
        /// changed and removed then): the version of ``from`` at ``revision`` read when planned.
        case promotion

        /// What a key needs to plan or cancel the change: the scopes of the writes it makes (a
        /// progressive rollout starts a rollout of files, as a push does, then moves its share; a
        /// promotion is one, as `POST …/promotions` is).
        var scopes: [KeyScope] {
            switch self {
            case .push: [.push]
            case .rollout: [.rollout]
            case .progressive: [.push, .rollout]
            case .promotion: [.promote]
            }
        }
    }

    /// Where the change is.
    enum State: String, Codable, Sendable {
        /// Steps remain to run.
        case planned
        /// Every step ran.
        case done
        /// A step came later than the grace after its time (the daemons were down): it was not
        /// run, nor any after it.
        case missed
        /// Cancelled before its last step.
        case cancelled
        /// A step was refused when it ran (its detail says why); no later step runs.
        case failed
        /// The progressive rollout was aborted (a refusal, a problem report, an operator).
        case aborted
    }

    /// One step: a time and, for a rollout, a share.
    struct Step: Codable, Hashable, Sendable {
        /// Where the step is.
        enum State: String, Codable, Sendable {
            case planned
            /// A daemon took it and is running it: no other daemon runs it.
            case claimed
            case done, missed, failed, cancelled
        }

        var at: Date
        /// The share the step sets, in percent; absent for a push.
        var percent: Double?
        var state: State
        /// When a daemon took the step.
        var ranAt: Date?
        /// What happened, when something did not go as planned.
        var detail: String?

        var basisPoints: Int? { percent.map { Int(($0 * 100).rounded()) } }
    }

    var id: String
    var kind: Kind
    var message: String
    /// The key that planned it, which its writes name as their author (history `by`).
    var by: String
    var createdAt: Date
    var state: State
    /// Why it ended other than done.
    var detail: String?
    /// The exact files of a push or progressive rollout (`nil` removes the path), or every file
    /// of a promotion's source; validated when planned, dropped once the change ends, so the
    /// record stays small.
    var files: [String: Data?]?
    /// The `Livery-Signed-Targets` header a push or promotion was planned with
    /// (``OfferedTargets``): with offline targets, its write at its time carries them into the
    /// same check as a write made then. Dropped, as the files are, once the change ends.
    var signedTargets: String?
    /// The paths the files write or remove; a promotion's, the source's paths (what it removes
    /// is known at its time).
    var paths: [String]
    /// The environment a promotion's files come from.
    var from: String?
    /// The revision of ``from`` promoted; `nil` when the source had no history.
    var revision: Int64?
    /// The rollout the change acts on: the one a progressive rollout started, or the one a
    /// share change named (`If-Match`).
    var rolloutID: String?
    var steps: [Step]

    /// The index of the step to run next, while the change is planned.
    var nextStep: Int? {
        guard state == .planned else { return nil }
        return steps.firstIndex { $0.state == .planned || $0.state == .claimed }
    }

    /// Ends the change as `state` for `detail`: the steps not yet run never will (`cancelled`),
    /// and the files are dropped.
    mutating func end(_ state: State, detail: String?) {
        self.state = state
        self.detail = detail
        for index in steps.indices where steps[index].state == .planned { steps[index].state = .cancelled }
        files = nil
        signedTargets = nil
    }

    /// The change as `GET /v1/schedule` lists it: without its files' bytes and signed targets.
    var listed: ScheduledChange {
        var change = self
        change.files = nil
        change.signedTargets = nil
        return change
    }
}
