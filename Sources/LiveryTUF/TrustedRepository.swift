package import Foundation

/// The metadata a TUF client trusts, and the checks of the client workflow (TUF 1.0, section 5)
/// that each newly fetched file must pass before it replaces what is trusted: signatures by
/// the threshold of the role's keys, versions never lower than one trusted (rollback), the very
/// version and bytes the role above names (a mixed set), and an expiry after `now` (freeze).
///
/// It does no I/O: the caller fetches each file the workflow names and hands its bytes over, in
/// order (``updateRoot(_:)`` until a 404, ``updateTimestamp(_:now:)``, ``updateSnapshot(_:now:)``,
/// ``updateTargets(_:now:)``). A refusal leaves what was trusted unchanged.
package struct TrustedRepository: Sendable {
    package private(set) var root: SignedMetadata<RootMetadata>
    package private(set) var timestamp: SignedMetadata<TimestampMetadata>?
    package private(set) var snapshot: SignedMetadata<SnapshotMetadata>?
    package private(set) var targets: SignedMetadata<TargetsMetadata>?

    /// The most root versions read in one refresh, as in python-tuf's ngclient.
    package static let maxRootRotations = 256

    /// Trusts `root` once it verifies with its own keys, and the other roles' metadata kept
    /// from an earlier run once they verify under that root (their expiry is not checked: an
    /// expired timestamp still guards against a rollback).
    package init(
        root: SignedMetadata<RootMetadata>, timestamp: SignedMetadata<TimestampMetadata>? = nil,
        snapshot: SignedMetadata<SnapshotMetadata>? = nil, targets: SignedMetadata<TargetsMetadata>? = nil
    ) throws(TUFRefusal) {
        try Self.check("root signature") { () throws(TUFError) in try root.verify(by: root.signed) }
        self.root = root
        self.timestamp = try timestamp.map { (metadata) throws(TUFRefusal) in
            try Self.check("timestamp signature") { () throws(TUFError) in try metadata.verify(by: root.signed) }
            return metadata
        }
        self.snapshot = try snapshot.map { (metadata) throws(TUFRefusal) in
            try Self.check("snapshot signature") { () throws(TUFError) in try metadata.verify(by: root.signed) }
            return metadata
        }
        self.targets = try targets.map { (metadata) throws(TUFRefusal) in
            try Self.check("targets signature") { () throws(TUFError) in try metadata.verify(by: root.signed) }
            return metadata
        }
    }

    /// 5.3: `bytes`, the root numbered next, signed by the trusted root's keys and by its own.
    package mutating func updateRoot(_ bytes: some Collection<UInt8>) throws(TUFRefusal) {
        let next = root.signed.version + 1
        let root = try Self.parse(RootMetadata.self, bytes)
        try Self.check("root signature") { () throws(TUFError) in
            try root.verify(by: self.root.signed)
            try root.verify(by: root.signed)
        }
        guard root.signed.version == next else {
            throw TUFRefusal("root version", "\(next).root.json holds version \(root.signed.version)")
        }
        // 5.3.11: keys of timestamp or snapshot rotated, so the versions they signed are forgotten.
        if Self.keys(of: "timestamp", root) != Self.keys(of: "timestamp", self.root)
            || Self.keys(of: "snapshot", root) != Self.keys(of: "snapshot", self.root)
        {
            timestamp = nil
            snapshot = nil
        }
        self.root = root
    }

    /// 5.3.10: the trusted root has not expired.
    package func checkRootExpiry(now: Date) throws(TUFRefusal) {
        try Self.checkExpiry(root.signed, now: now)
    }

    /// 5.4: never a lower timestamp version, nor a lower snapshot version; kept when equal.
    package mutating func updateTimestamp(_ bytes: some Collection<UInt8>, now: Date) throws(TUFRefusal) {
        let offered = try Self.parse(TimestampMetadata.self, bytes)
        try Self.check("timestamp signature") { () throws(TUFError) in try offered.verify(by: root.signed) }
        guard let offeredSnapshot = offered.signed.snapshot else {
            throw TUFRefusal("timestamp", "snapshot.json is not listed")
        }
        if let trusted = timestamp {
            guard offered.signed.version >= trusted.signed.version else {
                throw TUFRefusal(
                    "timestamp rollback",
                    "version \(offered.signed.version) is lower than \(trusted.signed.version) seen")
            }
            let seen = trusted.signed.snapshot?.version ?? 0
            guard offeredSnapshot.version >= seen else {
                throw TUFRefusal("snapshot rollback", "version \(offeredSnapshot.version) is lower than \(seen) seen")
            }
            if offered.signed.version > trusted.signed.version { timestamp = offered }
        } else {
            timestamp = offered
        }
        // Checked once kept, as ngclient does: an expired timestamp still guards against rollback.
        if let timestamp { try Self.checkExpiry(timestamp.signed, now: now) }
    }

    /// The snapshot file the trusted timestamp names, `nil` when the trusted snapshot is it.
    package var snapshotToFetch: MetaFile? {
        guard let meta = timestamp?.signed.snapshot, snapshot?.signed.version != meta.version else { return nil }
        return meta
    }

    /// 5.5: the snapshot the timestamp names, listing no targets version lower than one seen.
    package mutating func updateSnapshot(_ bytes: some Collection<UInt8>, now: Date) throws(TUFRefusal) {
        guard let meta = timestamp?.signed.snapshot else { throw TUFRefusal("snapshot", "no timestamp is trusted") }
        let offered = try listed(SnapshotMetadata.self, bytes, meta: meta, by: "timestamp")
        for (file, seen) in snapshot?.signed.meta ?? [:] {
            guard let named = offered.signed.meta[file] else {
                throw TUFRefusal("snapshot rollback", "\(file) is no longer listed")
            }
            guard named.version >= seen.version else {
                throw TUFRefusal(
                    "targets rollback", "\(file) version \(named.version) is lower than \(seen.version) seen")
            }
        }
        try Self.checkExpiry(offered.signed, now: now)
        snapshot = offered
        if targets?.signed.version != offered.signed.meta["targets.json"]?.version { targets = nil }
    }

    /// The targets file the trusted snapshot names, `nil` when the trusted targets are it.
    package func targetsToFetch() throws(TUFRefusal) -> MetaFile? {
        guard let snapshot else { throw TUFRefusal("targets", "no snapshot is trusted") }
        guard let meta = snapshot.signed.meta["targets.json"] else {
            throw TUFRefusal("snapshot", "targets.json is not listed")
        }
        return targets?.signed.version == meta.version ? nil : meta
    }

    /// 5.6: the targets metadata the snapshot names.
    package mutating func updateTargets(_ bytes: some Collection<UInt8>, now: Date) throws(TUFRefusal) {
        guard let meta = try targetsToFetch() else { return }
        let offered = try listed(TargetsMetadata.self, bytes, meta: meta, by: "snapshot")
        try Self.checkExpiry(offered.signed, now: now)
        targets = offered
    }

    /// Checks that the trusted snapshot and targets have not expired since they were fetched.
    package func checkExpiry(now: Date) throws(TUFRefusal) {
        if let snapshot { try Self.checkExpiry(snapshot.signed, now: now) }
        if let targets { try Self.checkExpiry(targets.signed, now: now) }
    }

    /// The earliest expiry of the metadata trusted (the timestamp's, as a rule): past it a client
    /// refreshes though nothing new is announced, or a front that froze the repository and the
    /// announcements alike would go unnoticed.
    package var expires: Date {
        [timestamp?.signed.expires, snapshot?.signed.expires, targets?.signed.expires].reduce(root.signed.expires) {
            min($0, $1 ?? $0)
        }
    }

    /// The name a file of the role's `version` is fetched by: `N.role.json` under consistent snapshots.
    package func fileName(role: String, version: Int) -> String {
        root.signed.consistentSnapshot ? "\(version).\(role).json" : "\(role).json"
    }

    /// The path a target is fetched by: `DIR/HASH.NAME` under consistent snapshots (5.7.3).
    package func path(ofTarget name: String, _ target: TargetFile) throws(TUFRefusal) -> String {
        guard let digest = target.sha256 else { throw TUFRefusal("target hash", "\(name) has no sha256") }
        guard root.signed.consistentSnapshot else { return name }
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        return "\(name[..<slash])\(digest).\(name[slash...])"
    }

    /// 5.7.3: `bytes` are target `name`, of the length and SHA-256 the targets metadata signs.
    package static func checkTarget(
        _ bytes: some Collection<UInt8>, name: String, _ target: TargetFile
    )
        throws(TUFRefusal)
    {
        guard bytes.count == target.length else {
            throw TUFRefusal("target length", "\(name) is \(bytes.count) bytes, \(target.length) signed")
        }
        guard target.matches(bytes) else { throw TUFRefusal("target hash", "\(name) is not the signed one") }
    }

    /// The `Role` metadata `meta` (an entry of the role `by`) names: of the length and hash
    /// `meta` signs if it signs them, signed by the role's keys, of the very version named.
    private func listed<Role: RoleMetadata>(
        _ type: Role.Type, _ bytes: some Collection<UInt8>, meta: MetaFile, by: String
    ) throws(TUFRefusal) -> SignedMetadata<Role> {
        let name = fileName(role: Role.roleName, version: meta.version)
        if let length = meta.length, bytes.count != length {
            throw TUFRefusal("\(Role.roleName) length", "\(name) is \(bytes.count) bytes, the \(by) names \(length)")
        }
        if let digest = meta.hashes?["sha256"],
            MetaFile(version: meta.version, bytes: bytes).hashes?["sha256"] != digest
        {
            throw TUFRefusal("\(Role.roleName) hash", "\(name) is not the file the \(by) names")
        }
        let offered = try Self.parse(Role.self, bytes)
        try Self.check("\(Role.roleName) signature") { () throws(TUFError) in try offered.verify(by: root.signed) }
        guard offered.signed.version == meta.version else {
            throw TUFRefusal(
                "\(Role.roleName) version",
                "\(name) holds version \(offered.signed.version), the \(by) names \(meta.version)")
        }
        return offered
    }

    private static func parse<Role: RoleMetadata>(
        _ type: Role.Type, _ bytes: some Collection<UInt8>
    )
        throws(TUFRefusal) -> SignedMetadata<Role>
    {
        try check(Role.roleName) { () throws(TUFError) in try SignedMetadata<Role>(bytes: bytes) }
    }

    private static func check<Value>(_ name: String, _ body: () throws(TUFError) -> Value) throws(TUFRefusal) -> Value {
        do {
            return try body()
        } catch {
            throw TUFRefusal(name, error.description)
        }
    }

    private static func checkExpiry(_ role: some RoleMetadata, now: Date) throws(TUFRefusal) {
        guard role.expires > now else {
            throw TUFRefusal("\(type(of: role).roleName) expired", "expired at \(role.expires.formatted(.iso8601))")
        }
    }

    private static func keys(of role: String, _ root: SignedMetadata<RootMetadata>) -> RoleKeys? {
        root.signed.roles[role]
    }
}
