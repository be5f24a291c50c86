import Foundation
import Livery
import Logging

extension FolderSpecStore {
    func record(named name: String) throws(StoreError) -> StoreRecord {
        let file = recordFile(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return StoreRecord(name: name, version: 0) }
        let data: Data
        do throws(FileSystemError) {
            data = try LocalFile.contents(of: file.path)
        } catch {
            throw .fileSystem(error.description)
        }
        let version = recordVersions[name] ?? 1
        recordVersions[name] = version
        return StoreRecord(name: name, data: data, version: version)
    }

    /// Writes the record's file atomically, readable by its owner alone, then records `event`
    /// in the history as etcd does; a history that cannot be written then is logged, as a
    /// commit's is.
    func write(
        record data: Data, named name: String, over version: Int64, event: String, by: String?,
        keepingReportsOf group: String
    ) throws(StoreError) -> Int64? {
        let file = recordFile(name)
        let current = FileManager.default.fileExists(atPath: file.path) ? recordVersions[name] ?? 1 : 0
        guard version == current else { return nil }
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(data, to: file, mode: 0o600)
        } catch {
            throw .fileSystem("cannot write the \(name) state '\(file.path)': \(error)")
        }
        recordVersions[name] = current + 1
        let kept = "\(name)/\(group)/"
        reportKeys = reportKeys.filter { !$0.hasPrefix("\(name)/") || $0.hasPrefix(kept) }
        do {
            _ = try publishes.appendEvent(event, by: by ?? HistoryEntry.unknownAuthor)
        } catch {
            logger.error(
                "cannot record an event in the history",
                metadata: ["livery.record": "\(name)", "livery.event": "\(event)", "livery.error": "\(error)"])
        }
        return current + 1
    }

    func add(report data: Data, onRecord name: String, group: String, key: String) {
        guard reportKeys.insert("\(name)/\(group)/\(key)").inserted else { return }
        reportSink.yield(.report(record: name, data))
    }
}
