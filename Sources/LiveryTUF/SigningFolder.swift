package import Foundation

/// The folder `livery signing init` makes: the root metadata of every version (`N.root.json`),
/// the root key (`root.key`, to keep offline) and the online roles' keys (`timestamp.key`,
/// `snapshot.key`, `targets.key`). `livery serve --signing` reads the root files and the online
/// keys only.
package struct SigningFolder: Sendable {
    package static let onlineRoles = ["timestamp", "snapshot", "targets"]
    /// How long a root version is valid.
    package static let rootLifetime: TimeInterval = 365 * 86_400

    package let url: URL

    package init(url: URL) {
        self.url = url
    }

    package func keyFile(of role: String) -> URL { url.appending(path: "\(role).key") }
    package func rootFile(version: Int) -> URL { url.appending(path: "\(version).root.json") }

    /// Makes the keys of every role and `1.root.json` in `url`, a new or empty folder.
    package static func create(at url: URL, now: Date) throws -> SigningFolder {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let existing = try FileManager.default.contentsOfDirectory(atPath: url.path)
        guard existing.isEmpty else {
            throw TUFError.badKey(
                "\(url.path) is not empty (\(existing.sorted().joined(separator: ", "))); expected a new folder")
        }
        let folder = SigningFolder(url: url)
        var keys: [String: SigningKey] = [:]
        for role in [RootMetadata.roleName] + onlineRoles { keys[role] = SigningKey() }
        let root = RootMetadata(
            version: 1, expires: now.addingTimeInterval(rootLifetime),
            keys: Dictionary(uniqueKeysWithValues: keys.values.map { ($0.publicKey.id, $0.publicKey) }),
            roles: keys.mapValues { RoleKeys(keyids: [$0.publicKey.id]) })
        var metadata = try SignedMetadata(root)
        try metadata.sign(with: keys[RootMetadata.roleName]!)
        for (role, key) in keys { try KeyFile.write(key, to: folder.keyFile(of: role)) }
        try Data(metadata.bytes).write(to: folder.rootFile(version: 1))
        return folder
    }

    /// The versions of root metadata in the folder, in order.
    package func rootVersions() throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).compactMap { name -> Int? in
            guard name.hasSuffix(".root.json") else { return nil }
            return Int(name.dropLast(".root.json".count))
        }.sorted()
    }

    /// The newest root metadata, checked against its own root keys.
    package func latestRoot() throws -> SignedMetadata<RootMetadata> {
        guard let version = try rootVersions().last else {
            throw TUFError.malformed(role: RootMetadata.roleName, detail: "\(url.path) holds no N.root.json")
        }
        let root = try SignedMetadata<RootMetadata>(bytes: Array(try Data(contentsOf: rootFile(version: version))))
        try root.verify(by: root.signed)
        return root
    }

    /// The online roles' keys, each checked to be the key the newest root gives its role. With
    /// `offlineTargets` the targets key is not read, and must not be in the folder: a daemon
    /// whose machine holds the targets key could sign any version, which offline targets exist
    /// to prevent.
    package func onlineRoles(timestampLifetime: TimeInterval, offlineTargets: Bool = false) throws -> OnlineRoles {
        let root = try latestRoot().signed
        var keys: [String: SigningKey] = [:]
        for role in Self.onlineRoles {
            if offlineTargets, role == TargetsMetadata.roleName {
                let file = keyFile(of: role)
                guard !FileManager.default.fileExists(atPath: file.path) else {
                    throw TUFError.badKey(
                        "\(file.path) is on this machine, but the targets key is to be kept offline: move it to the machine that signs pushes (livery push --sign-with)"
                    )
                }
                continue
            }
            let key = try KeyFile.read(keyFile(of: role))
            guard try root.keys(of: role).keyids.contains(key.publicKey.id) else {
                throw TUFError.badKey(
                    "\(keyFile(of: role).path) is not a \(role) key of root version \(root.version); expected one of \(try root.keys(of: role).keyids)"
                )
            }
            keys[role] = key
        }
        return OnlineRoles(
            timestampKey: keys["timestamp"]!, snapshotKey: keys["snapshot"]!, targetsKey: keys["targets"],
            timestampLifetime: timestampLifetime)
    }

    /// Gives `role` a new key in the next root version, signed by the current root keys and,
    /// for `root`, by the new one too, so that clients follow the rotation. Returns the version.
    package func rotate(_ role: String, now: Date) throws -> Int {
        let current = try latestRoot()
        let rootKey = try KeyFile.read(keyFile(of: RootMetadata.roleName))
        let old = try current.signed.keys(of: role)
        let key = SigningKey()
        var root = current.signed
        root.version += 1
        root.expires = now.addingTimeInterval(Self.rootLifetime)
        root.roles[role] = RoleKeys(keyids: [key.publicKey.id], threshold: old.threshold)
        root.keys[key.publicKey.id] = key.publicKey
        let used = Set(root.roles.values.flatMap(\.keyids))
        root.keys = root.keys.filter { used.contains($0.key) }
        var metadata = try SignedMetadata(root)
        try metadata.sign(with: rootKey)
        if role == RootMetadata.roleName { try metadata.sign(with: key) }
        try Data(metadata.bytes).write(to: rootFile(version: root.version), options: .withoutOverwriting)
        try KeyFile.write(key, to: keyFile(of: role))
        return root.version
    }
}
