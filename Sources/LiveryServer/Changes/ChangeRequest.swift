import Foundation

/// A write to a protected environment, held until enough other keys approve it
/// (``ChangeBook``): the exact files or action, the version it was made against, who asked,
/// why and when, and each review.
struct ChangeRequest: Codable, Sendable {
    /// Where a change request is.
    enum State: String, Codable, Sendable {
        /// Waiting for approvals.
        case pending
        /// Written: its approvals reached ``ChangeRequest/required`` while the environment
        /// was still at ``ChangeRequest/base``.
        case applied
        /// Refused by a reviewer; never written.
        case rejected
        /// The environment moved from its base before the last approval; never written.
        case stale
        /// A schedule whose first step's time came before its approvals: never planned, since
        /// a scheduled change runs at its time or not at all. It reads so from that time on
        /// (``ChangeRequest/isDue(at:)``), and the ledger keeps it so at its next write.
        case expired
    }

    /// What the change does once approved.
    enum Action: String, Codable, Sendable {
        /// Publishes ``ChangeRequest/files`` (a push, a delete, a promotion, a restore).
        case publish
        /// Starts a staged rollout of ``ChangeRequest/files`` to ``ChangeRequest/basisPoints``.
        case rollout
        /// Completes the running rollout ``ChangeRequest/rolloutID``.
        case completion
        /// Puts ``ChangeRequest/plan`` in the environment's schedule, with ``ChangeRequest/files``
        /// as its files; it must be approved before its first step's time.
        case schedule
    }

    /// One review: who, when and why.
    struct Review: Codable, Sendable {
        var by: String
        var time: String
        var message: String
    }

    var id: Int
    var action: Action
    var state: State
    /// New bytes by path; `nil` removes the file. Empty for a completion, and once closed.
    var files: [String: Data?]
    /// The paths it writes or removes, sorted.
    var paths: [String]
    /// The share a rollout starts at.
    var basisPoints: Int?
    /// Whether a rollout replaces a running one.
    var replace: Bool?
    /// The rollout a completion completes.
    var rolloutID: String?
    /// The `Livery-Signed-Targets` header the write came with (``OfferedTargets``): with offline
    /// targets, what its apply carries into the same check as the direct write's
    /// (``TUFRepository/admit(_:files:)``). Dropped once closed.
    var signedTargets: String?
    /// The scheduled change a schedule plans once approved, its files kept in ``files``.
    var plan: ScheduledChange?
    /// The ETag of the environment's bundle when the change was asked for; `nil` when its
    /// files did not load then, and for a schedule, whose steps write over whatever the
    /// environment holds at their time.
    var base: String?
    /// The newest revision of the environment's history then, to tell what changed since.
    var baseRevision: Int64?
    /// The name of the key that asked for it.
    var author: String
    var message: String
    /// When it was asked for, ISO 8601.
    var time: String
    /// How many approvals apply it: the environment's protection when it was asked for.
    var required: Int
    var approvals: [Review] = []
    var rejection: Review?
    /// When its approvals became complete, or a daemon took it up again, on the schedule's
    /// clock (RFC 3339): a daemon is applying it since then. Kept while it is pending, so that a
    /// daemon stopped before it kept what became of the change leaves it for another to take
    /// up (``ChangeBook/recover()``).
    var applyingSince: String?
    /// The revision its publish created, once applied.
    var revision: Int64?
    /// What the environment's history holds since ``baseRevision``, once stale.
    var changedSince: [HistoryEntry]?

    /// The message its write carries into the history: the change, its message and who
    /// approved it.
    var appliedMessage: String {
        let reviewers = approvals.map(\.by).joined(separator: ", ")
        return "change \(id)" + (message.isEmpty ? "" : ": \(message)") + " (approved by \(reviewers))"
    }

    /// Whether its approvals reached its count: it is being applied, or was.
    var isComplete: Bool { approvals.count >= required }

    /// Whether it is a pending schedule whose first step's time passed before its approvals
    /// were complete: it can never run, so it is expired from then on.
    func isDue(at now: Date) -> Bool {
        guard state == .pending, !isComplete, let due = plan?.steps.first?.at else { return false }
        return due < ScheduleTime.wholeSeconds(now)
    }

    /// Whether its approvals are complete but no daemon applies it any longer: it was taken
    /// ``ChangeBook/claimLife`` ago or more (or by an older daemon, which did not say when).
    func isOrphaned(at now: Date) -> Bool {
        guard state == .pending, isComplete else { return false }
        guard let since = applyingSince.flatMap(ScheduleTime.date(parsing:)) else { return true }
        return abs(now.timeIntervalSince(since)) >= ChangeBook.claimLife  // either way: a clock set back
    }

    /// What a write that an `admin` key made without approval says in the history.
    static func bypassed(_ message: String) -> String {
        (message.isEmpty ? "" : "\(message) ") + "(approval bypassed)"
    }
}

/// The change requests of an environment as its store keeps them: one record, so that a change
/// of any of them is one compare-and-write.
struct ChangeLedger: Codable, Sendable {
    /// The id of the next change request.
    var next = 1
    /// Oldest first.
    var changes: [ChangeRequest] = []

    /// How many closed change requests are kept (their files dropped), beside every pending one.
    static let closedKept = 50

    /// Drops the files and signed targets of closed change requests (their paths stay) and all but the newest
    /// ``closedKept`` of them, so the record stays small.
    mutating func prune() {
        for index in changes.indices where changes[index].state != .pending {
            changes[index].files = [:]
            changes[index].signedTargets = nil
        }
        let closed = changes.filter { $0.state != .pending }.map(\.id)
        let dropped = Set(closed.dropLast(Self.closedKept))
        changes.removeAll { dropped.contains($0.id) }
    }
}

/// An environment's protection: how many approvals a change request needs (0: none, the
/// environment is open).
struct Protection: Codable, Sendable, Equatable {
    var approvals: Int

    /// The most approvals an environment may ask for.
    static let maxApprovals = 10
}
