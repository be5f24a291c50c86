import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import LiveryTUF

/// The TUF metadata a verifying source trusts, kept in the folder of its offline cache
/// (`livery-tuf/root.json`, `timestamp.json`, `snapshot.json`, `targets.json`, each written
/// atomically) so that a restart starts from the versions trusted before and cannot be rolled
/// back. An environment's repository has versions of its own, so its files are kept apart, in
/// `livery-tuf/environments/{environment}/`. Without a cache folder, the root the program ships
/// is where each start begins.
struct TrustedMetadataStore {
    static let folderName = "livery-tuf"
    /// The largest metadata file read, as the browser client bounds it.
    static let maxBytes = 1 << 20

    let folder: URL

    /// The store in `cacheDirectory` of the repository of `environment` (`nil`: the daemon's
    /// default one, `/v1/tuf/`); `nil` for a name no daemon serves (`EnvironmentPath.isValidName`),
    /// which must not name a folder (`..`) and has no repository to trust anyway.
    init?(cacheDirectory: URL, environment: String?) {
        let folder = cacheDirectory.appending(component: Self.folderName)
        guard let environment else {
            self.folder = folder
            return
        }
        guard EnvironmentPath.isValidName(environment) else { return nil }
        self.folder = folder.appending(components: "environments", environment)
    }

    /// The repository trusted: the kept files when there are some, their root verified like the
    /// shipped one, else `shipped` (the bytes of the root the program was given).
    func load(shipped: [UInt8]) throws -> TrustedRepository {
        let given = try SignedMetadata<RootMetadata>(bytes: shipped)
        guard let keptRoot = try read("root") else { return try TrustedRepository(root: given) }
        let root = try SignedMetadata<RootMetadata>(bytes: keptRoot)
        // A kept root older than the shipped one (a program updated with a newer root) is forgotten.
        guard root.signed.version >= given.signed.version else { return try TrustedRepository(root: given) }
        return try TrustedRepository(
            root: root, timestamp: try read("timestamp").map { try SignedMetadata(bytes: $0) },
            snapshot: try read("snapshot").map { try SignedMetadata(bytes: $0) },
            targets: try read("targets").map { try SignedMetadata(bytes: $0) })
    }

    /// Keeps `repository`'s files, root first.
    func store(_ repository: TrustedRepository) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(repository.root.bytes, "root")
        if let timestamp = repository.timestamp { try write(timestamp.bytes, "timestamp") }
        if let snapshot = repository.snapshot { try write(snapshot.bytes, "snapshot") }
        if let targets = repository.targets { try write(targets.bytes, "targets") }
    }

    private func read(_ role: String) throws -> [UInt8]? {
        let file = folder.appending(component: "\(role).json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data = try LocalFile.contents(of: file.path)
        guard data.count <= Self.maxBytes else {
            throw TUFRefusal("\(role) metadata", "\(file.path) has \(data.count) bytes, at most \(Self.maxBytes) read")
        }
        return Array(data)
    }

    private func write(_ bytes: [UInt8], _ role: String) throws {
        try AtomicFile.write(Data(bytes), to: folder.appending(component: "\(role).json"), mode: 0o600)
    }
}
