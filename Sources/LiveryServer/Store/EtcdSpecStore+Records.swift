import Foundation
import Livery
import LiveryEtcd

extension EtcdSpecStore {
    func record(named name: String) async throws(StoreError) -> StoreRecord {
        let key = configuration.recordKey(name)
        do {
            let keyValue = try await client.range(key: key, rangeEnd: key + "\0").0.first
            return StoreRecord(name: name, data: keyValue?.value, version: keyValue?.modRevision ?? 0)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// One transaction that compares the record key's mod revision, puts the record and a
    /// publish record saying what happened (`event`) and who did it, and removes the reports of
    /// every other group.
    func write(
        record data: Data, named name: String, over version: Int64, event: String, by: String?,
        keepingReportsOf group: String
    ) async throws(StoreError) -> Int64? {
        let key = configuration.recordKey(name)
        let reports = configuration.reportsPrefix(of: name)
        let own = reports + group + "/"
        let now = Date()
        let history = PublishRecord(time: ISO8601DateFormatter().string(from: now), message: event, by: by, paths: [])
        do {
            let (succeeded, revision) = try await client.transaction(
                if: [version == 0 ? .absent(key: key) : .modRevision(key: key, equals: version)],
                then: [
                    .put(key: key, value: data),
                    .put(key: configuration.historyPrefix + Self.recordName(at: now), value: history.encoded),
                    .delete(key: reports, rangeEnd: own),
                    .delete(key: EtcdClient.prefixEnd(own), rangeEnd: EtcdClient.prefixEnd(reports)),
                ])
            return succeeded ? revision : nil
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Puts the report's key unless it is there; the watch brings it to every daemon.
    func add(report data: Data, onRecord name: String, group: String, key: String) async throws(StoreError) {
        let reportKey = configuration.reportsPrefix(of: name) + group + "/" + key
        do {
            _ = try await client.transaction(if: [.absent(key: reportKey)], then: [.put(key: reportKey, value: data)])
        } catch {
            throw Self.storeError(error)
        }
    }
}
