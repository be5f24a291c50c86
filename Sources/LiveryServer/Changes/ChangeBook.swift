import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// An environment's protection and change requests, kept as two records of its store
/// (``protectionRecord``, ``ledgerRecord``: in the state folder beside a folder's rollout, under
/// the environment's etcd prefix) so that every daemon of the environment agrees. Each change
/// is one compare-and-write of its record, tried again when another daemon wrote first, and one
/// entry of the environment's history (who, when, what) beside its log line.
///
/// A change request is applied by the approval that makes its approvals reach its `required`
/// count: through the environment's ``SpecWriter`` under the precondition that the bundle is
/// still the one it was made against (on etcd the commit is one transaction comparing the
/// state read), else it is marked stale with the history since, and nothing is written. A
/// daemon stopped between keeping that approval and keeping what became of the change leaves
/// it for another daemon, or its own next start, to take up (``recover()``).
struct ChangeBook: Sendable {
    static let protectionRecord = "protection"
    static let ledgerRecord = "changes"
    /// How many times a record write is tried again after another daemon wrote first.
    static let maxTries = 16
    /// The largest ledger record: etcd refuses a request over 1.5 MiB by default.
    static let maxLedgerBytes = 1_400_000
    /// How long a change whose approvals are complete is left to the daemon applying it
    /// (``ChangeRequest/applyingSince``) before another takes it up: far longer than an apply
    /// takes (a few store requests, each given up after seconds), so that only a change whose
    /// daemon stopped is taken up.
    static let claimLife: TimeInterval = 60
    /// The `by` of the history entries of what the daemon does by itself: a change request
    /// expired at its time, or taken up after its daemon stopped.
    static let daemonAuthor = "livery"

    let store: any SpecStore
    let writer: SpecWriter
    let rollouts: RolloutKeeper
    /// Where an approved schedule goes, and the clock its first step's time and a daemon's hold
    /// on a change are compared with.
    let scheduler: Scheduler
    let logger: Logger

    /// What a write of a record did, as the environment's history records it: its message and
    /// the key that did it.
    struct Step {
        var message: String
        var by: String
    }

    /// The environment's protection; approvals 0 when it has none.
    func protection() async throws(Problem) -> Protection {
        let record = try await read(Self.protectionRecord)
        guard let data = record.data else { return Protection(approvals: 0) }
        return try decode(Protection.self, data, record: Self.protectionRecord)
    }

    /// Protects the environment with `approvals` (0: unprotects it); `by` names the key.
    func protect(approvals: Int, by: String) async throws(Problem) {
        let count = "\(approvals) approval" + (approvals == 1 ? "" : "s")
        let event = approvals == 0 ? "unprotected by \(by)" : "protected (\(count)) by \(by)"
        let data = try encode(Protection(approvals: approvals))
        for _ in 0..<Self.maxTries {
            let record = try await read(Self.protectionRecord)
            if try await write(data, named: Self.protectionRecord, over: record.version, Step(message: event, by: by)) {
                logger.notice(
                    "environment protection changed",
                    metadata: ["livery.approvals": "\(approvals)", "livery.by": "\(by)"])
                return
            }
        }
        throw Self.tooManyRaces
    }

    /// Every change request kept, oldest first, as it is now: a schedule whose time passed
    /// without its approvals reads as expired before the ledger keeps it so.
    func ledger() async throws(Problem) -> ChangeLedger {
        var ledger = try await stored().ledger
        let now = scheduler.now
        for index in ledger.changes.indices where ledger.changes[index].isDue(at: now) {
            ledger.changes[index].state = .expired
        }
        return ledger
    }

    /// The ledger as ``ledger()`` reads it, once a change a stopped daemon left with its
    /// approvals complete is taken up (``recover()``): one read of the store when there is
    /// none, which is nearly always (the studio asks every two seconds).
    func recoveredLedger() async throws(Problem) -> ChangeLedger {
        let ledger = try await ledger()
        guard ledger.changes.contains(where: { $0.isOrphaned(at: scheduler.now) }) else { return ledger }
        await recover()
        return try await self.ledger()
    }

    /// The change request `id`, as ``recoveredLedger()`` reads it.
    func change(_ id: Int) async throws(Problem) -> ChangeRequest {
        guard let change = try await recoveredLedger().changes.first(where: { $0.id == id }) else {
            throw Self.unknown(id)
        }
        return change
    }

    /// Keeps `change` as a new pending request; the request with its id.
    func submit(_ change: ChangeRequest) async throws(Problem) -> ChangeRequest {
        let submitted = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            var change = change
            change.id = ledger.next
            ledger.next += 1
            ledger.changes.append(change)
            return (
                change,
                Step(message: "change \(change.id) requested by \(change.author): \(change.message)", by: change.author)
            )
        }
        logger.notice(
            "change requested",
            metadata: [
                "livery.change": "\(submitted.id)", "livery.by": "\(submitted.author)",
                "livery.paths": "\(submitted.paths)",
                "livery.message": "\(submitted.message)",
            ])
        return submitted
    }

    /// Rejects the pending change request `id`: it is never applied. One whose approvals are
    /// complete is being applied, and is refused.
    func reject(_ id: Int, by: String, message: String) async throws(Problem) -> ChangeRequest {
        await recover()
        let review = ChangeRequest.Review(by: by, time: Date().formatted(.iso8601), message: message)
        let rejected = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            let change = try Self.modify(&ledger, id) { (change: inout ChangeRequest) throws(Problem) in
                guard !change.isComplete else { throw Self.beingApplied(change) }
                change.state = .rejected
                change.rejection = review
            }
            return (change, Step(message: "change \(id) rejected by \(by): \(message)", by: by))
        }
        logger.notice("change rejected", metadata: ["livery.change": "\(id)", "livery.by": "\(by)"])
        return rejected
    }

    /// Approves the pending change request `id` as the key `by`, never its author's. The
    /// approval that reaches its count is kept first, with the time this daemon started
    /// applying it, so that of two daemons approving at once one alone applies it; then the
    /// change is applied, or found stale, and that is kept (``close(_:by:recovering:)``). A
    /// schedule whose first step's time passed is expired, and the approval refused: it would
    /// run late, or skip steps a reviewer approved.
    func approve(_ id: Int, by: String, message: String) async throws(Problem) -> ChangeRequest {
        await recover()
        let review = ChangeRequest.Review(by: by, time: Date().formatted(.iso8601), message: message)
        let approved = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            let change = try Self.modify(&ledger, id) { (change: inout ChangeRequest) throws(Problem) in
                guard change.author != by else {
                    throw Problem(
                        kind: .ownChange,
                        detail: "change \(id) was asked for by the key '\(by)': another key must approve it")
                }
                guard !change.approvals.contains(where: { $0.by == by }) else {
                    throw Problem(kind: .alreadyApproved, detail: "the key '\(by)' approved change \(id) already")
                }
                guard !change.isComplete else { throw Self.beingApplied(change) }
                change.approvals.append(review)
                if change.isComplete { change.applyingSince = ScheduleTime.text(of: scheduler.now) }
            }
            return (
                change,
                Step(
                    message: "change \(id) approved by \(by) (\(change.approvals.count) of \(change.required))", by: by)
            )
        }
        logger.notice("change approved", metadata: ["livery.change": "\(id)", "livery.by": "\(by)"])
        guard approved.isComplete else { return approved }
        return try await close(approved, by: by, recovering: false)
    }

    /// Takes up each change whose approvals are complete but that no daemon applies any longer
    /// (``ChangeRequest/isOrphaned(at:)``: a daemon stopped between keeping its last approval
    /// and keeping what became of it), and closes it: applied, stale, or found applied already.
    /// The daemon whose compare-and-write takes it up is the one that closes it, so it is closed
    /// once however many daemons start at the same time. Called as the environment starts and
    /// before each read or review of its changes; a failure is logged, and the next call tries
    /// again.
    func recover() async {
        do throws(Problem) {
            let now = scheduler.now
            for orphan in try await ledger().changes where orphan.isOrphaned(at: now) {
                let taken = try await updateLedger {
                    (ledger: inout ChangeLedger) throws(Problem) -> (ChangeRequest?, Step?) in
                    guard let index = ledger.changes.firstIndex(where: { $0.id == orphan.id }),
                        ledger.changes[index].isOrphaned(at: now)
                    else { return (nil, nil) }  // another daemon took it up first
                    ledger.changes[index].applyingSince = ScheduleTime.text(of: now)
                    let step = Step(
                        message:
                            "change \(orphan.id) taken up again: its \(orphan.required) approvals were kept, but the daemon applying it stopped",
                        by: Self.daemonAuthor)
                    return (ledger.changes[index], step)
                }
                guard let taken else { continue }
                logger.warning(
                    "change taken up again: the daemon applying it stopped",
                    metadata: ["livery.change": "\(taken.id)", "livery.since": "\(orphan.applyingSince ?? "-")"])
                _ = try await close(taken, by: Self.daemonAuthor, recovering: true)
            }
        } catch {
            logger.error(
                "cannot take up a change whose approvals are complete", metadata: ["livery.error": "\(error)"])
        }
    }

    /// Applies `change`, whose approvals are complete and which this daemon holds, or finds it
    /// stale (or, `recovering` it, applied already by a daemon that stopped before keeping
    /// that), and keeps what became of it; `by` did it. An apply that fails (the store down)
    /// takes the last approval back and keeps the change pending.
    private func close(_ change: ChangeRequest, by: String, recovering: Bool) async throws(Problem) -> ChangeRequest {
        let id = change.id
        let outcome: Outcome
        do throws(Problem) {
            if recovering, let done = try await appliedBefore(change) {
                outcome = done
            } else {
                outcome = try await apply(change)
            }
        } catch {
            let last = change.approvals.last?.by ?? by
            _ = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
                let change = try Self.modify(&ledger, id) {
                    $0.approvals.removeAll { $0.by == last }
                    $0.applyingSince = nil
                }
                let message =
                    "change \(id): the approval by \(last) taken back, the change could not be applied: \(error.detail)"
                return (change, Step(message: message, by: by))
            }
            throw error
        }
        let closed = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            let change = try Self.modify(&ledger, id) { outcome.record(on: &$0) }
            return (change, Step(message: "change \(id) \(outcome)", by: by))
        }
        logger.notice(
            "change closed", metadata: ["livery.change": "\(id)", "livery.state": "\(closed.state.rawValue)"])
        return closed
    }

    /// What became of a change whose approvals are complete.
    enum Outcome: Sendable, CustomStringConvertible {
        case applied(revision: Int64?)
        case stale(since: [HistoryEntry])

        func record(on change: inout ChangeRequest) {
            change.applyingSince = nil
            switch self {
            case .applied(let revision):
                change.state = .applied
                change.revision = revision
            case .stale(let since):
                change.state = .stale
                change.changedSince = since
            }
        }

        var description: String {
            switch self {
            case .applied(let revision): "applied" + (revision.map { " as revision \($0)" } ?? "")
            case .stale: "stale, the environment changed since it was asked for; nothing written"
            }
        }
    }

    /// Writes `change` if the environment is still at its base (and, for a completion, its
    /// rollout still runs); else finds it stale. With offline targets its write carries the
    /// signed targets it was held with, checked as the direct write's are: targets signed for a
    /// repository that moved on since (another signed write came first) fail the apply.
    private func apply(_ change: ChangeRequest) async throws(Problem) -> Outcome {
        if let plan = change.plan { return try await schedule(plan, of: change) }
        let base = SpecWriter.Precondition.base(change.base.map { EntityTag(opaque: EntityTag.opaque(of: $0)) })
        let set = ChangeSet(
            files: change.files, message: change.appliedMessage, author: change.author,
            signedTargets: change.signedTargets)
        do throws(RolloutError) {
            switch change.action {
            case .publish:
                return .applied(revision: try await write(set, base, dryRun: false).revision)
            case .rollout:
                _ = try await rollouts.start(
                    try await write(set, base, dryRun: true), basisPoints: change.basisPoints ?? 0,
                    message: change.appliedMessage, replace: change.replace ?? false,
                    signedTargets: change.signedTargets)
            case .completion:
                guard writer.rollouts.runningID == change.rolloutID else { throw .notRunning }
                _ = try await rollouts.complete(
                    ifMatch: change.rolloutID, message: change.appliedMessage, author: change.author,
                    signedTargets: change.signedTargets)
            case .schedule:
                throw .store(.storeFailed("change \(change.id) is a schedule that keeps no plan"))
            }
            return .applied(revision: nil)
        } catch {
            switch error {
            case .store(.bundleChanged), .alreadyRunning, .notRunning, .idMismatch:
                do throws(StoreError) {
                    return .stale(since: try await history(since: change))
                } catch {
                    throw error.problem
                }
            case .store(.targetsNotSigned(let why)):
                throw StoreError.targetsNotSigned(
                    "change \(change.id) keeps the targets signed when it was asked for, and they do not fit the version it makes now (\(why)): reject it and push it again with --sign-with KEY"
                ).problem
            default:
                throw error.problem
            }
        }
    }

    /// Puts the approved `plan` in the schedule, under its author's name, with the files kept
    /// in `change` and a message naming the change and its approvers, which its writes carry
    /// into the history. Its steps write over whatever the environment holds at their time, as
    /// any scheduled change does: it is never stale.
    private func schedule(_ plan: ScheduledChange, of change: ChangeRequest) async throws(Problem) -> Outcome {
        var plan = plan
        // A share change has no files; a promotion of an empty source has none to keep, and is one.
        plan.files = plan.kind == .rollout ? nil : change.files
        plan.message = change.appliedMessage
        do throws(ScheduleError) {
            try await scheduler.plan(plan)
        } catch {
            throw error.problem
        }
        return .applied(revision: nil)
    }

    /// What refuses a review of `change`, expired (``ChangeRequest/isDue(at:)``).
    private static func expired(_ change: ChangeRequest) -> Problem {
        let due = change.plan?.steps.first.map { ScheduleTime.text(of: $0.at) } ?? "?"
        return Problem(
            kind: .changeExpired,
            detail:
                "change \(change.id) plans a change for \(due), and that time came before its \(change.required) approvals: a scheduled change on a protected environment is approved before its time or it never runs, so it is expired; plan it again for a later time"
        )
    }

    private static func beingApplied(_ change: ChangeRequest) -> Problem {
        Problem(
            kind: .changeClosed,
            detail:
                "change \(change.id) has its \(change.required) approvals and is being applied (since \(change.applyingSince ?? "an older daemon's approval"))"
        )
    }

    /// What the history and the schedule say became of `change` if a daemon applied it already
    /// and stopped before keeping that: its publish, its rollout's start or its completion is
    /// in the history since its base under its message (``ChangeRequest/appliedMessage``), its
    /// plan in the schedule. `nil` when it was not applied.
    private func appliedBefore(_ change: ChangeRequest) async throws(Problem) -> Outcome? {
        if let plan = change.plan {
            do throws(ScheduleError) {
                return try await scheduler.list().contains { $0.id == plan.id } ? .applied(revision: nil) : nil
            } catch {
                throw error.problem
            }
        }
        let entries: [HistoryEntry]
        do throws(StoreError) {
            entries = try await store.history(limit: 100)
        } catch {
            throw error.problem
        }
        guard
            let entry = entries.first(where: {
                $0.revision > (change.baseRevision ?? 0) && $0.message.contains(change.appliedMessage)
            })
        else { return nil }
        return .applied(revision: change.action == .publish ? entry.revision : nil)
    }

    private func write(
        _ set: ChangeSet, _ base: SpecWriter.Precondition, dryRun: Bool
    ) async throws(RolloutError) -> SpecWriter.Result {
        do throws(StoreError) {
            return try await writer.write(set, precondition: base, dryRun: dryRun)
        } catch {
            throw .store(error)
        }
    }

    /// The publishes the environment's history holds since the change was asked for.
    private func history(since change: ChangeRequest) async throws(StoreError) -> [HistoryEntry] {
        try await store.history(limit: 100).filter { $0.revision > (change.baseRevision ?? 0) && !$0.paths.isEmpty }
    }

    /// The ledger record as the store holds it, and its version.
    private func stored() async throws(Problem) -> (ledger: ChangeLedger, version: Int64) {
        let record = try await read(Self.ledgerRecord)
        let ledger =
            try record.data.map { data throws(Problem) in
                try decode(ChangeLedger.self, data, record: Self.ledgerRecord)
            } ?? ChangeLedger()
        return (ledger, record.version)
    }

    /// Changes the ledger as `body` does, over the version read; tried again when another
    /// daemon wrote first. `body` returns its result and the step the history records, `nil`
    /// to write nothing. A schedule whose time passed without its approvals is kept expired
    /// first, in a write of its own, so that its history entry and log line are its own and
    /// come once.
    private func updateLedger<T>(
        _ body: (inout ChangeLedger) async throws(Problem) -> (T, Step?)
    ) async throws(Problem) -> T {
        var races = 0
        while races < Self.maxTries {
            let (read, version) = try await stored()
            var ledger = read
            let now = scheduler.now
            if let index = ledger.changes.firstIndex(where: { $0.isDue(at: now) }) {
                ledger.changes[index].state = .expired
                let change = ledger.changes[index]
                let due = change.plan?.steps.first.map { ScheduleTime.text(of: $0.at) } ?? "?"
                let step = Step(
                    message:
                        "change \(change.id) expired: its plan was due at \(due) with \(change.approvals.count) of its \(change.required) approvals; it never runs",
                    by: Self.daemonAuthor)
                if try await write(ledger, over: version, step) {
                    logger.notice(
                        "change expired", metadata: ["livery.change": "\(change.id)", "livery.due": "\(due)"])
                } else {
                    races += 1
                }
                continue
            }
            let (result, step) = try await body(&ledger)
            guard let step else { return result }
            if try await write(ledger, over: version, step) { return result }
            races += 1
        }
        throw Self.tooManyRaces
    }

    /// Writes `ledger`, its closed changes pruned, over `version`; whether no other daemon
    /// wrote it first.
    private func write(_ ledger: ChangeLedger, over version: Int64, _ step: Step) async throws(Problem) -> Bool {
        var ledger = ledger
        ledger.prune()
        let data = try encode(ledger)
        guard data.count <= Self.maxLedgerBytes else {
            throw Problem(
                kind: .tooManyChanges,
                detail:
                    "the pending change requests would take \(data.count) bytes, over the \(Self.maxLedgerBytes) an environment keeps: approve or reject some first"
            )
        }
        return try await write(data, named: Self.ledgerRecord, over: version, step)
    }

    /// Writes the record `name` over `version`; whether no other daemon wrote it first.
    private func write(
        _ data: Data, named name: String, over version: Int64, _ step: Step
    ) async throws(Problem)
        -> Bool
    {
        do throws(StoreError) {
            return try await store.write(
                record: data, named: name, over: version, event: step.message, by: step.by, keepingReportsOf: "")
                != nil
        } catch {
            throw error.problem
        }
    }

    private static func modify(
        _ ledger: inout ChangeLedger, _ id: Int, _ body: (inout ChangeRequest) throws(Problem) -> Void
    ) throws(Problem) -> ChangeRequest {
        guard let index = ledger.changes.firstIndex(where: { $0.id == id }) else { throw unknown(id) }
        if ledger.changes[index].state == .expired { throw expired(ledger.changes[index]) }
        guard ledger.changes[index].state == .pending else {
            throw Problem(
                kind: .changeClosed,
                detail: "change \(id) is \(ledger.changes[index].state.rawValue), no longer pending")
        }
        try body(&ledger.changes[index])
        return ledger.changes[index]
    }

    private static func unknown(_ id: Int) -> Problem {
        Problem(kind: .unknownChange, detail: "there is no change request \(id) in this environment")
    }

    private static var tooManyRaces: Problem { StoreError.tooManyRaces(maxTries).problem }

    private func read(_ name: String) async throws(Problem) -> StoreRecord {
        do throws(StoreError) {
            return try await store.record(named: name)
        } catch {
            throw error.problem
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data, record: String) throws(Problem) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw Problem(kind: .storeFailed, detail: "the store's \(record) record cannot be read: \(error)")
        }
    }

    private func encode(_ value: some Encodable) throws(Problem) -> Data {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(value)
        } catch {
            throw Problem(kind: .storeFailed, detail: "cannot encode a change request: \(error)")
        }
    }
}
