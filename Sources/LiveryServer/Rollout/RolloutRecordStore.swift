import Foundation
import Logging
import Synchronization

/// The rollout's record (``RolloutRecord`` as JSON) and its reports (``RolloutReport``) in the
/// daemon's store, under ``recordName``, with the version this daemon last saw or wrote: a
/// write is made over it, so that of two daemons sharing a store the second to change the
/// rollout learns it lost.
final class RolloutRecordStore: Sendable {
    /// The name of the store record that keeps the rollout.
    static let recordName = "rollout"

    private let store: any SpecStore
    private let logger: Logger
    /// The version of the record this daemon last saw or wrote (0: none).
    private let version = Mutex<Int64>(0)

    init(store: any SpecStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The rollout the store holds now, if any and not yet seen; a record that cannot be read
    /// is logged.
    func read() async -> RolloutRecord? {
        do throws(StoreError) {
            return accept(try await store.record(named: Self.recordName))
        } catch {
            logger.error("cannot read the rollout state", metadata: ["livery.error": "\(error)"])
            return nil
        }
    }

    /// The rollout `stored` holds, unless it is another record, a version this daemon saw or
    /// wrote already, or no rollout (logged: a value written by something other than a daemon).
    func accept(_ stored: StoreRecord) -> RolloutRecord? {
        guard stored.name == Self.recordName else { return nil }
        let isNew = version.withLock { version in
            guard version != stored.version else { return false }
            version = stored.version
            return true
        }
        guard isNew, let data = stored.data else { return nil }
        do {
            return try JSONDecoder().decode(RolloutRecord.self, from: data)
        } catch {
            logger.error(
                "the store's rollout record holds no rollout; ignored",
                metadata: ["livery.version": "\(stored.version)", "livery.error": "\(error)"])
            return nil
        }
    }

    /// Writes `record` over the version last seen, with `event` in the store's history, and
    /// removes the reports of every other rollout.
    func write(_ record: RolloutRecord, event: String) async throws(RolloutError) {
        let written: Int64?
        do throws(StoreError) {
            let data: Data
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                data = try encoder.encode(record)
            } catch {
                throw .storeFailed("cannot encode the rollout: \(error)")
            }
            written = try await store.write(
                record: data, named: Self.recordName, over: version.withLock { $0 }, event: event, by: nil,
                keepingReportsOf: record.rollout.id)
        } catch {
            throw .store(error)
        }
        guard let written else { throw .changedElsewhere }
        version.withLock { $0 = written }
    }

    /// Adds `report` to the record, once per instance and rollout.
    func add(_ report: RolloutReport) async throws(StoreError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(report)
        } catch {
            throw .storeFailed("cannot encode the rollout report: \(error)")
        }
        try await store.add(report: data, onRecord: Self.recordName, group: report.rollout, key: report.instance)
    }

    /// The report `data` holds on the record `name`; `nil` for another record's, and for a value
    /// that is no report (logged).
    func report(_ data: Data, onRecord name: String) -> RolloutReport? {
        guard name == Self.recordName else { return nil }
        do {
            return try JSONDecoder().decode(RolloutReport.self, from: data)
        } catch {
            logger.warning(
                "a rollout report in the store is no report; ignored", metadata: ["livery.error": "\(error)"])
            return nil
        }
    }
}
