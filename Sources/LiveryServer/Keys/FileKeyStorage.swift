import Foundation
import Livery

/// The keys of a daemon without etcd: one JSON file in its state folder, outside the specs
/// folder (so no push, and no client of the folder, can read it), readable by its owner alone
/// (0600) and replaced whole, atomically, on each change.
actor FileKeyStorage: KeyStorage {
    /// The file: ``DaemonConfiguration/stateFile(ofRecord:)`` of `keys`.
    let file: URL

    init(file: URL) {
        self.file = file
    }

    private struct Contents: Codable {
        var keys: [KeyRecord]
    }

    func load() throws(StoreError) -> [KeyRecord] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        do {
            let data = try LocalFile.contents(of: file.path)
            return try JSONDecoder().decode(Contents.self, from: data).keys
        } catch {
            throw .fileSystem("cannot read the keys file '\(file.path)': \(error)")
        }
    }

    func add(_ record: KeyRecord) throws(StoreError) -> Bool {
        var keys = try load()
        guard !keys.contains(where: { $0.grant.name == record.grant.name }) else { return false }
        keys.append(record)
        try save(keys)
        return true
    }

    func remove(_ name: String) throws(StoreError) -> Bool {
        let keys = try load()
        let kept = keys.filter { $0.grant.name != name }
        guard kept.count < keys.count else { return false }
        try save(kept)
        return true
    }

    func saveUsage(_ records: [KeyRecord]) throws(StoreError) {
        let used = Dictionary(records.map { ($0.grant.name, $0.lastUsed) }, uniquingKeysWith: { first, _ in first })
        try save(
            try load().map { record in
                var record = record
                if let seen = used[record.grant.name] ?? nil { record.lastUsed = seen }
                return record
            })
    }

    nonisolated func follow(into receive: @escaping @Sendable ([KeyRecord]) -> Void) async {
        // Only this daemon writes its file.
    }

    private func save(_ keys: [KeyRecord]) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(try encoder.encode(Contents(keys: keys)), to: file, mode: 0o600)
        } catch {
            throw .fileSystem("cannot write the keys file '\(file.path)': \(error)")
        }
    }
}
