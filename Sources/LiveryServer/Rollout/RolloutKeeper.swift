import Foundation
import Livery
import LiveryHTTP
import Logging
import Prometheus

/// The daemon's staged rollout: starts one from a validated candidate, changes its share,
/// aborts or completes it, keeps it in the store, and aborts it by itself when the cohort's
/// clients refuse the candidate or report problems with it (``AbortThreshold``).
///
/// Changes take turns (an actor); the version signal learns each one at once through
/// ``BundleHub/signal(_:candidate:)``. The record is kept in the store (``RolloutRecordStore``),
/// so that of two daemons sharing a store the second to change it learns it lost
/// (``RolloutError/changedElsewhere``) and follows the first (``adopt(_:)``). The clients'
/// reports arrive synchronously from the connections' event loops (``observe(_:)``), are added
/// to the record once per instance, and come back through the store's follower
/// (``count(report:onRecord:)``), so that every daemon
/// counts the reports of all of them and decides the abort from the same count; they are
/// counted in a ``RolloutTally``. On a shared store the daemon whose abort lands first aborts,
/// the others follow its change.
actor RolloutKeeper {
    private let hub: BundleHub
    private let writer: SpecWriter
    private let clients: ClientTable
    private let stored: RolloutRecordStore
    private let threshold: AbortThreshold
    private let metrics: EnvironmentMetrics
    private let logger: Logger
    private nonisolated let tally = RolloutTally()

    init(
        hub: BundleHub, writer: SpecWriter, clients: ClientTable, store: any SpecStore, threshold: AbortThreshold,
        metrics: EnvironmentMetrics, logger: Logger
    ) {
        self.hub = hub
        self.writer = writer
        self.clients = clients
        self.stored = RolloutRecordStore(store: store, logger: logger)
        self.threshold = threshold
        self.metrics = metrics
        self.logger = logger
    }

    /// The last rollout (running or ended), if any.
    nonisolated var record: RolloutRecord? { tally.record }

    /// Reads the store's record and puts a running rollout back in the signal, before the store
    /// is followed. A record that cannot be read is logged and leaves no rollout running; a
    /// candidate that no longer validates is aborted.
    func restore() async {
        guard let record = await stored.read() else { return }
        guard record.rollout.state == .running else {
            remember(record)
            return
        }
        do {
            let candidate = BundleSnapshot(spec: try await writer.spec(of: Self.sources(record.candidateFiles)))
            remember(record)
            hub.signal(record.rollout, candidate: candidate)
            logger.notice(
                "rollout resumed",
                metadata: ["livery.id": "\(record.rollout.id)", "livery.percent": "\(record.rollout.percentText)"])
        } catch {
            let ended = record.with(state: .aborted, reason: "the candidate no longer validates: \(error)")
            remember(ended)
            logger.error(
                "rollout aborted at start", metadata: ["livery.id": "\(record.rollout.id)", "livery.error": "\(error)"])
            do {
                try await stored.write(ended, event: "rollout \(record.rollout.id) aborted at start")
            } catch {
                logger.error(
                    "cannot keep the abort at start",
                    metadata: ["livery.id": "\(record.rollout.id)", "livery.error": "\(error)"])
            }
        }
    }

    /// Starts a rollout of `candidate` (a validated dry run of the candidate push) to
    /// `basisPoints` of the clients; `replace` ends a running one first. With offline targets
    /// `signedTargets` (``OfferedTargets``) must be the targets the rollout publishes, and name
    /// its id: the writer chose it when signing.
    func start(
        _ candidate: SpecWriter.Result, basisPoints: Int, message: String, replace: Bool, signedTargets: String? = nil
    ) async throws(RolloutError) -> RolloutRecord {
        if let running = record, running.rollout.state == .running, !replace {
            throw .alreadyRunning(running.rollout.id)
        }
        guard let stable = hub.snapshot else { throw .noStableVersion }
        guard stable.etag != candidate.bundleETag else { throw .candidateIsStable(candidate.bundleETag.description) }
        let files = candidate.sources.files.mapValues(\.data)
        let signedID = writer.offlineTargets == nil ? nil : OfferedTargets.rollout(in: signedTargets)?.id
        let record = RolloutRecord(
            rollout: Rollout(
                id: signedID ?? Self.newID(), basisPoints: basisPoints, stable: stable.etagText,
                candidate: candidate.bundleETag.description),
            startedAt: Date().formatted(.iso8601), message: message, candidateFiles: files)
        let snapshot = BundleSnapshot(spec: candidate.spec)
        try await admit(signedTargets, current: stable, candidate: (record.rollout, snapshot))
        try await stored.write(
            record, event: "rollout \(record.rollout.id) started at \(record.rollout.percentText): \(message)")
        if let replaced = self.record, replaced.rollout.state == .running {
            logger.notice("rollout replaced", metadata: ["livery.id": "\(replaced.rollout.id)"])
        }
        remember(record)
        hub.signal(record.rollout, candidate: snapshot)
        await writer.offlineTargets?.publishOffered()
        logger.notice(
            "rollout started",
            metadata: [
                "livery.id": "\(record.rollout.id)", "livery.percent": "\(record.rollout.percentText)",
                "livery.candidate": "\(record.rollout.candidate)", "livery.message": "\(message)",
            ])
        return record
    }

    /// Changes the running rollout's share; `signedTargets` as for ``start(_:basisPoints:message:replace:signedTargets:)``.
    func set(
        basisPoints: Int, ifMatch: String?, signedTargets: String? = nil
    ) async throws(RolloutError)
        -> RolloutRecord
    {
        let record = try running(ifMatch: ifMatch).with(basisPoints: basisPoints)
        let candidate = hub.snapshot(version: record.rollout.candidate)
        if let stable = hub.snapshot {
            try await admit(signedTargets, current: stable, candidate: candidate.map { (record.rollout, $0) })
        }
        try await stored.write(record, event: "rollout \(record.rollout.id) set to \(record.rollout.percentText)")
        remember(record)
        hub.signal(record.rollout, candidate: candidate)
        await writer.offlineTargets?.publishOffered()
        logger.notice(
            "rollout share changed",
            metadata: ["livery.id": "\(record.rollout.id)", "livery.percent": "\(record.rollout.percentText)"])
        return record
    }

    /// Withdraws the candidate: every client returns to the stable version. `automatic` when the
    /// cohort's reports reached the threshold. An operator's abort publishes the stable
    /// version's targets alone, signed as for ``start(_:basisPoints:message:replace:signedTargets:)``
    /// with offline targets; the daemon's own cannot be signed, so with offline targets it only
    /// returns the cohort to the stable version through the signal, and the targets keep naming
    /// the candidate until the next signed write.
    func abort(
        reason: String, ifMatch: String?, automatic: Bool = false, signedTargets: String? = nil
    ) async throws(RolloutError) -> RolloutRecord {
        let record = try running(ifMatch: ifMatch).with(state: .aborted, reason: reason)
        if !automatic, let stable = hub.snapshot {
            try await admit(signedTargets, current: stable, candidate: nil)
        }
        var failure: RolloutError?
        do {
            try await stored.write(record, event: "rollout \(record.rollout.id) aborted: \(reason)")
        } catch {
            // Another daemon's change came first: this daemon follows it (and, if the reports
            // still reach the threshold, aborts again then).
            if case .changedElsewhere = error {
                if automatic { tally.abortFailed() }
                throw error
            }
            failure = error
        }
        // The cohort goes back even if the store cannot keep the abort.
        hub.signal(record.rollout, candidate: nil)
        remember(record)
        if !automatic { await writer.offlineTargets?.publishOffered() }
        metrics.rolloutAborts(by: automatic ? "daemon" : "operator").increment()
        logger.warning(
            automatic ? "rollout aborted by the daemon" : "rollout aborted",
            metadata: ["livery.id": "\(record.rollout.id)", "livery.reason": "\(reason)"])
        if let failure { throw failure }
        return record
    }

    /// Publishes the candidate as the stable version, through the one write path, which checks
    /// `signedTargets` with offline targets (the candidate's targets, no rollout).
    func complete(
        ifMatch: String?, message: String, author: String, signedTargets: String? = nil
    ) async throws(RolloutError) -> RolloutRecord {
        let running = try running(ifMatch: ifMatch)
        let record = running.with(state: .completed)
        do throws(StoreError) {
            let sources = Self.sources(running.candidateFiles)
            var change = try await writer.change(
                toMatch: sources, message: message.isEmpty ? "rollout \(running.rollout.id) completed" : message,
                author: author)
            change.signedTargets = signedTargets
            _ = try await writer.write(change, precondition: .none, dryRun: false, completing: true)
        } catch {
            throw .store(error)
        }
        // Until the store publishes the candidate, the signal sends everyone to it.
        hub.signal(record.rollout, candidate: hub.snapshot(version: record.rollout.candidate))
        remember(record)
        logger.notice("rollout completed", metadata: ["livery.id": "\(record.rollout.id)"])
        try await stored.write(record, event: "rollout \(record.rollout.id) completed")
        return record
    }

    /// With offline targets, checks that `signedTargets` are the targets the daemon publishes
    /// for `current` and `candidate` once the rollout changes, and keeps them to publish
    /// (``TUFRepository/admit(_:files:)``); before anything is written.
    private func admit(
        _ signedTargets: String?, current: BundleSnapshot, candidate: (Rollout, BundleSnapshot)?
    ) async throws(RolloutError) {
        guard let repository = writer.offlineTargets else { return }
        do throws(StoreError) {
            try await repository.admit(
                signedTargets, files: TUFTargets.files(current: current, candidate: candidate))
        } catch {
            throw .store(error)
        }
    }

    /// The rollout and its cohort as `GET /v1/rollout` shows them; `nil` when there never was one.
    nonisolated func status() -> RolloutStatus? {
        let (record, refused, problems) = tally.counts
        guard let record else { return nil }
        let (expected, applied) = clients.cohort(of: record.rollout)
        return RolloutStatus(
            record: record, threshold: threshold,
            cohort: .init(expected: expected, applied: applied, refused: refused, problems: problems))
    }

    /// Takes a client's report against the running rollout: adds it to the store's record once
    /// per instance, and every daemon counts it when the store's follower brings it back. Called
    /// for every report the fleet table records (with a read token, only those that carry it).
    nonisolated func observe(_ header: LiveryClientHeader) {
        guard header.refused != nil || header.problem != nil, let rollout = tally.record?.rollout,
            rollout.state == .running, let report = RolloutReport(header, against: rollout), tally.claim(report)
        else { return }
        Task { [stored, tally, logger] in
            do throws(StoreError) {
                try await stored.add(report)
            } catch {
                tally.release(report)
                logger.warning(
                    "cannot record a rollout report in the store",
                    metadata: ["livery.instance": "\(report.instance)", "livery.error": "\(error)"])
            }
        }
    }

    /// Counts a report the store holds on the record `name`, and starts an abort when the
    /// cohort's reports reach the threshold.
    nonisolated func count(report data: Data, onRecord name: String) {
        guard let report = stored.report(data, onRecord: name) else { return }
        guard let rollout = tally.record?.rollout, rollout.id == report.rollout, !tally.contains(report) else {
            return
        }
        let expected = clients.cohort(of: rollout).expected
        guard let reason = tally.count(report, threshold: threshold, expected: expected) else { return }
        Task { await self.abortAutomatically(reason: reason, id: rollout.id) }
    }

    /// The daemon's own abort at the threshold. Losing to another daemon's change, or finding the
    /// rollout ended, is expected (that daemon's state is followed); anything else is logged.
    private func abortAutomatically(reason: String, id: String) async {
        do {
            _ = try await abort(reason: reason, ifMatch: id, automatic: true)
        } catch .changedElsewhere, .notRunning, .idMismatch {
        } catch {
            logger.error(
                "the daemon's abort is not kept", metadata: ["livery.id": "\(id)", "livery.error": "\(error)"])
        }
    }

    // MARK: Helpers

    private func running(ifMatch: String?) throws(RolloutError) -> RolloutRecord {
        guard let record, record.rollout.state == .running else { throw .notRunning }
        if let ifMatch, EntityTag.opaque(of: ifMatch) != record.rollout.id, ifMatch != "*" {
            throw .idMismatch(current: record.rollout.id)
        }
        return record
    }

    /// Makes `record` the current one; a new rollout starts its counts afresh.
    private func remember(_ record: RolloutRecord) {
        tally.remember(record)
        writer.rollouts.set(running: record.rollout.state == .running ? record.rollout.id : nil)
    }

    /// Takes the rollout as another daemon wrote it to the store, unless this daemon wrote that
    /// version itself.
    func adopt(_ record: StoreRecord) async {
        guard let record = stored.accept(record) else { return }
        remember(record)
        guard record.rollout.state != .aborted else {
            hub.signal(record.rollout, candidate: nil)
            return
        }
        do {
            let candidate = BundleSnapshot(spec: try await writer.spec(of: Self.sources(record.candidateFiles)))
            hub.signal(record.rollout, candidate: candidate)
        } catch {
            logger.error("the rollout's candidate does not validate here", metadata: ["livery.error": "\(error)"])
        }
        let expected = clients.cohort(of: record.rollout).expected
        if record.rollout.state == .running, let reason = tally.recheck(threshold: threshold, expected: expected) {
            await abortAutomatically(reason: reason, id: record.rollout.id)
        }
    }

    private static func sources(_ files: [String: Data]) -> SpecSourceSet {
        var sources = SpecSourceSet()
        for (path, data) in files { try? sources.set(path, to: data) }
        return sources
    }

    /// 16 random hexadecimal digits: a rollout's id, and a scheduled change's.
    static func newID() -> String { Rollout.newID() }
}
