import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// An environment's protection and change requests, kept as two records of its store
/// (``protectionRecord``, ``ledgerRecord``: in the state folder beside a folder's rollout, under
/// the environment's etcd prefix) so that every daemon of the environment agrees. Each change
/// is one compare-and-write of its record, tried again when another daemon wrote first.
///
/// A change request is applied by the approval that makes its approvals reach its `required`
/// count: through the environment's ``SpecWriter`` under the precondition that the bundle is
/// still the one it was made against (on etcd the commit is one transaction comparing the
/// state read), else it is marked stale with the history since, and nothing is written.
struct ChangeBook: Sendable {
    static let protectionRecord = "protection"
    static let ledgerRecord = "changes"
    /// How many times a record write is tried again after another daemon wrote first.
    static let maxTries = 16
    /// The largest ledger record: etcd refuses a request over 1.5 MiB by default.
    static let maxLedgerBytes = 1_400_000

    let store: any SpecStore
    let writer: SpecWriter
    let rollouts: RolloutKeeper
    /// Where an approved schedule goes, and the time its first step is compared with.
    let scheduler: Scheduler
    let logger: Logger

    /// The environment's protection; approvals 0 when it has none.
    func protection() async throws(Problem) -> Protection {
        let record = try await read(Self.protectionRecord)
        guard let data = record.data else { return Protection(approvals: 0) }
        return try decode(Protection.self, data, record: Self.protectionRecord)
    }

    /// Protects the environment with `approvals` (0: unprotects it); `by` names the key.
    func protect(approvals: Int, by: String) async throws(Problem) {
        let event = approvals == 0 ? "unprotected by \(by)" : "protected (\(approvals) approvals) by \(by)"
        let data = try encode(Protection(approvals: approvals))
        for _ in 0..<Self.maxTries {
            let record = try await read(Self.protectionRecord)
            if try await write(data, named: Self.protectionRecord, over: record.version, event: event) {
                logger.notice(
                    "environment protection changed",
                    metadata: ["livery.approvals": "\(approvals)", "livery.by": "\(by)"])
                return
            }
        }
        throw Self.tooManyRaces
    }

    /// Every change request kept, oldest first.
    func ledger() async throws(Problem) -> ChangeLedger {
        let record = try await read(Self.ledgerRecord)
        guard let data = record.data else { return ChangeLedger() }
        return try decode(ChangeLedger.self, data, record: Self.ledgerRecord)
    }

    /// The change request `id`.
    func change(_ id: Int) async throws(Problem) -> ChangeRequest {
        guard let change = try await ledger().changes.first(where: { $0.id == id }) else { throw Self.unknown(id) }
        return change
    }

    /// Keeps `change` as a new pending request; the request with its id.
    func submit(_ change: ChangeRequest) async throws(Problem) -> ChangeRequest {
        let submitted = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            var change = change
            change.id = ledger.next
            ledger.next += 1
            ledger.changes.append(change)
            return (change, "change \(change.id) requested by \(change.author): \(change.message)")
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

    /// Rejects the pending change request `id`: it is never applied.
    func reject(_ id: Int, by: String, message: String) async throws(Problem) -> ChangeRequest {
        let review = ChangeRequest.Review(by: by, time: Date().formatted(.iso8601), message: message)
        let rejected = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            let change = try Self.modify(&ledger, id) { (change: inout ChangeRequest) throws(Problem) in
                change.state = .rejected
                change.rejection = review
            }
            return (change, "change \(id) rejected by \(by): \(message)")
        }
        logger.notice("change rejected", metadata: ["livery.change": "\(id)", "livery.by": "\(by)"])
        return rejected
    }

    /// Approves the pending change request `id` as the key `by`, never its author's. The
    /// approval that reaches its count is kept first, so that of two daemons approving at once
    /// one alone applies it; then the change is applied, or found stale, and that is kept. An
    /// apply that fails (the store down) takes its approval back and keeps the change pending.
    /// A schedule approved after its first step's time is closed as expired and the approval
    /// refused: it would run late, or skip steps a reviewer approved.
    func approve(_ id: Int, by: String, message: String) async throws(Problem) -> ChangeRequest {
        let review = ChangeRequest.Review(by: by, time: Date().formatted(.iso8601), message: message)
        let now = scheduler.now
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
                guard change.approvals.count < change.required else {
                    throw Problem(
                        kind: .changeClosed,
                        detail: "change \(id) has its \(change.required) approvals and is being applied")
                }
                if let due = change.plan?.steps.first?.at, due < ScheduleTime.wholeSeconds(now) {
                    change.state = .expired
                    return
                }
                change.approvals.append(review)
            }
            if change.state == .expired { return (change, "change \(id) expired: approved by \(by) after its time") }
            return (change, "change \(id) approved by \(by) (\(change.approvals.count) of \(change.required))")
        }
        if approved.state == .expired {
            logger.notice("change expired", metadata: ["livery.change": "\(id)", "livery.by": "\(by)"])
            throw Self.expired(approved, now: now)
        }
        logger.notice("change approved", metadata: ["livery.change": "\(id)", "livery.by": "\(by)"])
        guard approved.approvals.count >= approved.required else { return approved }
        let outcome: Outcome
        do throws(Problem) {
            outcome = try await apply(approved)
        } catch {
            _ = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
                let change = try Self.modify(&ledger, id) { $0.approvals.removeAll { $0.by == by } }
                return (change, "change \(id): the approval by \(by) taken back, the change could not be applied")
            }
            throw error
        }
        let closed = try await updateLedger { (ledger: inout ChangeLedger) throws(Problem) in
            let change = try Self.modify(&ledger, id) { outcome.record(on: &$0) }
            return (change, "change \(id) \(outcome)")
        }
        logger.notice(
            "change closed", metadata: ["livery.change": "\(id)", "livery.state": "\(closed.state.rawValue)"])
        return closed
    }

    /// What the last approval did.
    enum Outcome: Sendable, CustomStringConvertible {
        case applied(revision: Int64?)
        case stale(since: [HistoryEntry])

        func record(on change: inout ChangeRequest) {
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
    /// rollout still runs); else finds it stale.
    private func apply(_ change: ChangeRequest) async throws(Problem) -> Outcome {
        if let plan = change.plan { return try await schedule(plan, of: change) }
        let base = SpecWriter.Precondition.base(change.base.map { EntityTag(opaque: EntityTag.opaque(of: $0)) })
        let set = ChangeSet(files: change.files, message: change.appliedMessage, author: change.author)
        do throws(RolloutError) {
            switch change.action {
            case .publish:
                return .applied(revision: try await write(set, base, dryRun: false).revision)
            case .rollout:
                _ = try await rollouts.start(
                    try await write(set, base, dryRun: true), basisPoints: change.basisPoints ?? 0,
                    message: change.appliedMessage, replace: change.replace ?? false)
            case .completion:
                guard writer.rollouts.runningID == change.rolloutID else { throw .notRunning }
                _ = try await rollouts.complete(
                    ifMatch: change.rolloutID, message: change.appliedMessage, author: change.author)
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

    private static func expired(_ change: ChangeRequest, now: Date) -> Problem {
        let due = change.plan?.steps.first.map { ScheduleTime.text(of: $0.at) } ?? "?"
        return Problem(
            kind: .changeExpired,
            detail:
                "change \(change.id) plans a change for \(due), before this approval at \(ScheduleTime.text(of: now)): a scheduled change on a protected environment is approved before its time or it never runs, so it is expired; plan it again for a later time"
        )
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

    /// Changes the ledger as `body` does, over the version read; tried again when another
    /// daemon wrote first. `body` returns its result and the history's event.
    private func updateLedger<T>(
        _ body: (inout ChangeLedger) async throws(Problem) -> (T, String)
    ) async throws(Problem) -> T {
        for _ in 0..<Self.maxTries {
            let record = try await read(Self.ledgerRecord)
            var ledger =
                try record.data.map { data throws(Problem) in
                    try decode(ChangeLedger.self, data, record: Self.ledgerRecord)
                } ?? ChangeLedger()
            let (result, event) = try await body(&ledger)
            ledger.prune()
            let data = try encode(ledger)
            guard data.count <= Self.maxLedgerBytes else {
                throw Problem(
                    kind: .tooManyChanges,
                    detail:
                        "the pending change requests would take \(data.count) bytes, over the \(Self.maxLedgerBytes) an environment keeps: approve or reject some first"
                )
            }
            if try await write(data, named: Self.ledgerRecord, over: record.version, event: event) { return result }
        }
        throw Self.tooManyRaces
    }

    /// Writes the record `name` over `version`; whether no other daemon wrote it first.
    private func write(
        _ data: Data, named name: String, over version: Int64, event: String
    ) async throws(Problem)
        -> Bool
    {
        do throws(StoreError) {
            return try await store.write(record: data, named: name, over: version, event: event, keepingReportsOf: "")
                != nil
        } catch {
            throw error.problem
        }
    }

    private static func modify(
        _ ledger: inout ChangeLedger, _ id: Int, _ body: (inout ChangeRequest) throws(Problem) -> Void
    ) throws(Problem) -> ChangeRequest {
        guard let index = ledger.changes.firstIndex(where: { $0.id == id }) else { throw unknown(id) }
        guard ledger.changes[index].state == .pending else {
            throw Problem(
                kind: .changeClosed,
                detail: "change \(id) is \(ledger.changes[index].state.rawValue), no longer pending")
        }
        try body(&ledger.changes[index])
        return ledger.changes[index]
    }

    private static func find(_ ledger: ChangeLedger, _ id: Int) throws(Problem) -> ChangeRequest {
        guard let change = ledger.changes.first(where: { $0.id == id }) else { throw unknown(id) }
        return change
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
