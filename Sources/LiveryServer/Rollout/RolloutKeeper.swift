import Foundation
import Livery
import LiveryHTTP
import Logging
import Prometheus
import ServiceLifecycle

/// The daemon's staged rollout: starts one from a validated candidate, changes its share,
/// aborts or completes it, keeps it across restarts, and aborts it by itself when the cohort's
/// clients refuse the candidate or report problems with it (``AbortThreshold``).
///
/// Changes take turns (an actor); the version signal learns each one at once through
/// ``BundleHub/signal(_:candidate:)``, and the record is kept where the store is: a state file
/// written atomically beside a folder store, or one etcd key changed by a transaction comparing
/// its mod revision, which every daemon on the prefix follows (``run()``), with a history record
/// for each change. The clients' reports arrive synchronously from the connections' event loops
/// (``observe(_:)``) and are counted in a ``RolloutTally``: at once on a folder store; on etcd
/// once written to etcd (``RolloutReport``) and read back through the watch, so that every
/// daemon counts the reports of all of them and decides the abort from the same count. An
/// abort the count causes is started from there; on etcd the daemon whose transaction lands
/// first aborts, the others follow its change.
actor RolloutKeeper: Service {
    /// Where the rollout is kept.
    enum Storage: Sendable {
        /// A state file (folder stores).
        case file(URL)
        /// The store's rollout key (etcd).
        case etcd(EtcdSpecStore)
    }

    private let hub: BundleHub
    private let writer: SpecWriter
    private let clients: ClientTable
    private let storage: Storage
    /// The etcd key's mod revision this daemon last saw (0: no key).
    private var etcdRevision: Int64 = 0
    private let threshold: AbortThreshold
    private let metrics: ServerMetrics
    private let logger: Logger
    private nonisolated let tally = RolloutTally()

    init(
        hub: BundleHub, writer: SpecWriter, clients: ClientTable, storage: Storage, threshold: AbortThreshold,
        metrics: ServerMetrics, logger: Logger
    ) {
        self.hub = hub
        self.writer = writer
        self.clients = clients
        self.storage = storage
        self.threshold = threshold
        self.metrics = metrics
        self.logger = logger
    }

    /// The last rollout (running or ended), if any.
    nonisolated var record: RolloutRecord? { tally.record }

    /// Reads the state file and puts a running rollout back in the signal. A file that cannot be
    /// read or a candidate that no longer validates is logged and leaves no rollout running.
    func restore() async {
        guard case .file(let file) = storage, FileManager.default.fileExists(atPath: file.path) else { return }
        let record: RolloutRecord
        do {
            record = try JSONDecoder().decode(RolloutRecord.self, from: Data(contentsOf: file))
        } catch {
            logger.error(
                "cannot read the rollout state", metadata: ["livery.path": "\(file.path)", "livery.error": "\(error)"])
            return
        }
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
                try await persist(ended, event: "rollout \(record.rollout.id) aborted at start")
            } catch {
                logger.error(
                    "cannot keep the abort at start",
                    metadata: ["livery.id": "\(record.rollout.id)", "livery.error": "\(error)"])
            }
        }
    }

    /// Starts a rollout of `candidate` (a validated dry run of the candidate push) to
    /// `basisPoints` of the clients; `replace` ends a running one first.
    func start(
        _ candidate: SpecWriter.Result, basisPoints: Int, message: String, replace: Bool
    ) async throws(RolloutError) -> RolloutRecord {
        if let running = record, running.rollout.state == .running, !replace {
            throw .alreadyRunning(running.rollout.id)
        }
        guard let stable = hub.snapshot else { throw .noStableVersion }
        guard stable.etag != candidate.bundleETag else { throw .candidateIsStable(candidate.bundleETag.description) }
        let files = candidate.sources.files.mapValues(\.data)
        let record = RolloutRecord(
            rollout: Rollout(
                id: Self.newID(), basisPoints: basisPoints, stable: stable.etagText,
                candidate: candidate.bundleETag.description),
            startedAt: Date().formatted(.iso8601), message: message, candidateFiles: files)
        try await persist(
            record, event: "rollout \(record.rollout.id) started at \(record.rollout.percentText): \(message)")
        if let replaced = self.record, replaced.rollout.state == .running {
            logger.notice("rollout replaced", metadata: ["livery.id": "\(replaced.rollout.id)"])
        }
        remember(record)
        hub.signal(record.rollout, candidate: BundleSnapshot(spec: candidate.spec))
        logger.notice(
            "rollout started",
            metadata: [
                "livery.id": "\(record.rollout.id)", "livery.percent": "\(record.rollout.percentText)",
                "livery.candidate": "\(record.rollout.candidate)", "livery.message": "\(message)",
            ])
        return record
    }

    /// Changes the running rollout's share.
    func set(basisPoints: Int, ifMatch: String?) async throws(RolloutError) -> RolloutRecord {
        let record = try running(ifMatch: ifMatch).with(basisPoints: basisPoints)
        try await persist(record, event: "rollout \(record.rollout.id) set to \(record.rollout.percentText)")
        remember(record)
        hub.signal(record.rollout, candidate: hub.snapshot(version: record.rollout.candidate))
        logger.notice(
            "rollout share changed",
            metadata: ["livery.id": "\(record.rollout.id)", "livery.percent": "\(record.rollout.percentText)"])
        return record
    }

    /// Withdraws the candidate: every client returns to the stable version. `automatic` when the
    /// cohort's reports reached the threshold.
    func abort(reason: String, ifMatch: String?, automatic: Bool = false) async throws(RolloutError) -> RolloutRecord {
        let record = try running(ifMatch: ifMatch).with(state: .aborted, reason: reason)
        var failure: RolloutError?
        do {
            try await persist(record, event: "rollout \(record.rollout.id) aborted: \(reason)")
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
        metrics.rolloutAborts(by: automatic ? "daemon" : "operator").increment()
        logger.warning(
            automatic ? "rollout aborted by the daemon" : "rollout aborted",
            metadata: ["livery.id": "\(record.rollout.id)", "livery.reason": "\(reason)"])
        if let failure { throw failure }
        return record
    }

    /// Publishes the candidate as the stable version, through the one write path.
    func complete(ifMatch: String?, message: String) async throws(RolloutError) -> RolloutRecord {
        let running = try running(ifMatch: ifMatch)
        let record = running.with(state: .completed)
        do throws(StoreError) {
            let sources = Self.sources(running.candidateFiles)
            let change = try await writer.change(
                toMatch: sources, message: message.isEmpty ? "rollout \(running.rollout.id) completed" : message)
            _ = try await writer.write(change, precondition: .none, dryRun: false, completing: true)
        } catch {
            throw .store(error)
        }
        // Until the store publishes the candidate, the signal sends everyone to it.
        hub.signal(record.rollout, candidate: hub.snapshot(version: record.rollout.candidate))
        remember(record)
        logger.notice("rollout completed", metadata: ["livery.id": "\(record.rollout.id)"])
        try await persist(record, event: "rollout \(record.rollout.id) completed")
        return record
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

    /// Takes a client's report against the running rollout: counts it at once on a folder
    /// store; on etcd writes it there (once per instance), and every daemon counts it when the
    /// watch brings it back. Called for every report the fleet table records (with a read
    /// token, only those that carry it).
    nonisolated func observe(_ header: LiveryClientHeader) {
        guard header.refused != nil || header.problem != nil, let rollout = tally.record?.rollout,
            rollout.state == .running, let report = RolloutReport(header, against: rollout)
        else { return }
        guard case .etcd(let store) = storage else { return count(report) }
        guard tally.claim(report) else { return }
        Task { [tally, logger] in
            do throws(StoreError) {
                try await store.putReport(report)
            } catch {
                tally.release(report)
                logger.warning(
                    "cannot record a rollout report in etcd",
                    metadata: ["livery.instance": "\(report.instance)", "livery.error": "\(error)"])
            }
        }
    }

    /// Counts `report`, and starts an abort when the cohort's reports reach the threshold.
    private nonisolated func count(_ report: RolloutReport) {
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

    /// Follows the rollout other daemons write (etcd) until graceful shutdown.
    func run() async throws {
        guard case .etcd(let store) = storage else {
            try? await gracefulShutdown()
            return
        }
        for await change in store.followRollout().cancelOnGracefulShutdown() {
            switch change {
            case .record(let state): await adopt(state)
            case .report(let report): count(report)
            }
        }
    }

    /// Takes a rollout read from etcd, unless this daemon wrote it (or a later one) itself.
    private func adopt(_ state: EtcdSpecStore.RolloutState) async {
        guard state.modRevision != etcdRevision else { return }
        etcdRevision = state.modRevision
        guard let record = state.record else { return }
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

    private func persist(_ record: RolloutRecord, event: String) async throws(RolloutError) {
        guard case .file(let file) = storage else {
            guard case .etcd(let store) = storage else { return }
            let revision: Int64?
            do throws(StoreError) {
                revision = try await store.putRollout(record, over: etcdRevision, event: event)
            } catch {
                throw .store(error)
            }
            guard let revision else { throw .changedElsewhere }
            etcdRevision = revision
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try AtomicFile.write(try encoder.encode(record), to: file, mode: 0o600)
        } catch {
            throw .stateFile("cannot write the rollout state '\(file.path)': \(error)")
        }
    }

    private static func sources(_ files: [String: Data]) -> SpecSourceSet {
        var sources = SpecSourceSet()
        for (path, data) in files { try? sources.set(path, to: data) }
        return sources
    }

    /// 16 random hexadecimal digits.
    private static func newID() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
