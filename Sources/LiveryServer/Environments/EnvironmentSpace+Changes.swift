import Foundation
import Livery
import LiveryEtcd
import LiveryHTTP

extension EnvironmentSpace {
    /// Creates the environment `name` holding `files` (empty for none), in one atomic write: on
    /// a folder of environments a hidden folder written whole, then renamed to `name`; on etcd
    /// one transaction that writes its name and its files, only if the name is still free.
    func create(_ name: String, files: SpecSourceSet) async throws(Problem) {
        switch self {
        case .folder:
            throw Self.fixed
        case .root(let root):
            let target = root.appending(path: name, directoryHint: .isDirectory)
            guard !FileManager.default.fileExists(atPath: target.path) else { throw Self.exists(name) }
            let staging = root.appending(path: ".\(name).creating-\(UUID().uuidString)", directoryHint: .isDirectory)
            do {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
                for file in files.files.values {
                    let url = staging.appending(path: file.path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try file.data.write(to: url)
                }
                try FileManager.default.moveItem(at: staging, to: target)
            } catch {
                Self.removeQuietly(staging)
                if FileManager.default.fileExists(atPath: target.path) { throw Self.exists(name) }
                throw Problem(kind: .fileSystem, detail: "cannot create the environment '\(name)': \(error)")
            }
        case .etcd(let etcd, let client):
            let marker = etcd.prefix + Self.etcdNamesFolder + name
            let specs = etcd.prefix + Self.etcdFolder + name + "/" + EtcdStoreConfiguration.specsFolder
            var operations: [EtcdClient.Operation] = [.put(key: marker, value: Data(Self.createdRecord().utf8))]
            for file in files.files.values { operations.append(.put(key: specs + file.path, value: file.data)) }
            let created = try await Self.etcd {
                () async throws(EtcdError) -> Bool in
                try await client.transaction(if: [.absent(key: marker)], then: operations).succeeded
            }
            guard created else { throw Self.exists(name) }
        }
    }

    /// Deletes the environment `name` and its files atomically: its folder renamed away, then
    /// removed; on etcd one transaction that removes its name and every key under its prefix.
    func delete(_ name: String) async throws(Problem) {
        switch self {
        case .folder:
            throw Self.fixed
        case .root(let root):
            let target = root.appending(path: name, directoryHint: .isDirectory)
            let doomed = root.appending(path: ".\(name).deleting-\(UUID().uuidString)", directoryHint: .isDirectory)
            do {
                try FileManager.default.moveItem(at: target, to: doomed)
            } catch {
                throw Problem(kind: .fileSystem, detail: "cannot delete the environment '\(name)': \(error)")
            }
            Self.removeQuietly(doomed)
        case .etcd(let etcd, let client):
            let marker = etcd.prefix + Self.etcdNamesFolder + name
            let folder = etcd.prefix + Self.etcdFolder + name + "/"
            let markers = try await Self.etcd {
                () async throws(EtcdError) -> [EtcdClient.KeyValue] in
                try await client.range(key: marker, rangeEnd: marker + "\0").0
            }
            guard let current = markers.first else {
                throw Problem(kind: .unknownEnvironment, detail: "there is no environment '\(name)'")
            }
            let deleted = try await Self.etcd {
                () async throws(EtcdError) -> Bool in
                try await client.transaction(
                    if: [.modRevision(key: marker, equals: current.modRevision)],
                    then: [.delete(key: marker), .delete(key: folder, rangeEnd: EtcdClient.prefixEnd(folder))]
                ).succeeded
            }
            guard deleted else {
                throw Problem(
                    kind: .environmentConflict, detail: "the environment '\(name)' changed meanwhile; try again")
            }
        }
    }

    /// Hands `receive` the names of the environments each time they change, until cancelled: on
    /// etcd, followed with one watch of the names' keys (the default environment always among
    /// them); elsewhere this daemon alone creates and deletes them, and this returns at once.
    func followNames(_ receive: @escaping @Sendable (Set<String>) -> Void) async {
        guard case .etcd(let etcd, let client) = self else { return }
        let folder = etcd.prefix + Self.etcdNamesFolder
        var names: Set<String> = [Self.defaultName]
        for await event in client.follow(prefix: folder, silenceLimit: etcd.watchSilenceLimit) {
            switch event {
            case .snapshot(let keyValues, _):
                names = Set(keyValues.map { String($0.key.dropFirst(folder.count)) }).union([Self.defaultName])
            case .changes(let events, _):
                for event in events {
                    let name = String(event.keyValue.key.dropFirst(folder.count))
                    if event.isDelete { names.remove(name) } else { names.insert(name) }
                }
            case .reachable, .unreachable:
                continue
            }
            receive(names.filter { EnvironmentPath.isValidName($0) })
        }
    }

    /// The answer of `request` to etcd, or the problem its failure answers with.
    private static func etcd<T>(_ request: () async throws(EtcdError) -> T) async throws(Problem) -> T {
        do throws(EtcdError) {
            return try await request()
        } catch {
            throw EtcdSpecStore.storeError(error).problem
        }
    }

    private static var fixed: Problem {
        Problem(
            kind: .environmentConflict,
            detail:
                "this daemon serves one specs folder, the environment 'default'; start it with --environments ROOT (a folder per environment) or --etcd to create and delete environments"
        )
    }

    private static func exists(_ name: String) -> Problem {
        Problem(kind: .environmentConflict, detail: "the environment '\(name)' exists already")
    }

    /// The value of an environment's name key: when it was created.
    private static func createdRecord() -> String {
        #"{"created":"\#(ISO8601DateFormatter().string(from: Date()))"}"#
    }

    /// Removes `url`, which nothing reads any more: what cannot be removed stays, hidden.
    private static func removeQuietly(_ url: URL) {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            // A leftover hidden folder is ignored by the listing of environments.
        }
    }
}
