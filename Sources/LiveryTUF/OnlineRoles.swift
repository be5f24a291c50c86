package import Foundation

/// Signs the online roles of a repository: a new targets, snapshot and timestamp for each
/// publish, a new timestamp (and, rarely, snapshot and targets) before they expire. With
/// offline targets (no ``targetsKey``) the targets come signed from elsewhere
/// (``publishing(targets:after:now:)``) and only snapshot and timestamp are signed here.
///
/// Pure: the repository's previous metadata and the time come in, the next metadata goes out,
/// so the daemon and `livery push --sign-with` compute the same targets from the same inputs.
package struct OnlineRoles: Sendable {
    package var timestampKey: SigningKey
    package var snapshotKey: SigningKey
    /// `nil` when the targets key is kept offline.
    package var targetsKey: SigningKey?
    /// How long a timestamp is valid; it is re-signed at half of it.
    package var timestampLifetime: TimeInterval
    /// How long targets and snapshot are valid by default (targets signed offline too).
    package static let defaultTargetsLifetime: TimeInterval = 365 * 86_400
    /// How long targets and snapshot are valid; re-signed at half of it with nothing published.
    package var targetsLifetime = defaultTargetsLifetime

    package init(
        timestampKey: SigningKey, snapshotKey: SigningKey, targetsKey: SigningKey?, timestampLifetime: TimeInterval
    ) {
        self.timestampKey = timestampKey
        self.snapshotKey = snapshotKey
        self.targetsKey = targetsKey
        self.timestampLifetime = timestampLifetime
    }

    /// The repository after publishing `files`: targets, a snapshot naming it and a timestamp
    /// naming that, each one version past `previous`.
    package func publishing(
        _ files: [String: TargetFile], after previous: RepositoryMetadata?, now: Date
    ) throws
        -> RepositoryMetadata
    {
        guard let targetsKey else {
            throw TUFError.badKey("the targets key is kept offline: targets metadata must come signed")
        }
        var targets = try SignedMetadata(
            TargetsMetadata(
                version: (previous?.targetsVersion ?? 0) + 1, expires: now.addingTimeInterval(targetsLifetime),
                targets: files))
        try targets.sign(with: targetsKey)
        return try publishing(targets: targets, after: previous, now: now)
    }

    /// The repository after publishing `targets`, signed already: a snapshot naming it and a
    /// timestamp naming that, each one version past `previous`.
    package func publishing(
        targets: SignedMetadata<TargetsMetadata>, after previous: RepositoryMetadata?, now: Date
    ) throws
        -> RepositoryMetadata
    {
        let targetsVersion = targets.signed.version
        var snapshot = try SignedMetadata(
            SnapshotMetadata(
                version: (previous?.snapshotVersion ?? 0) + 1, expires: now.addingTimeInterval(targetsLifetime),
                meta: ["targets.json": MetaFile(version: targetsVersion)]))
        try snapshot.sign(with: snapshotKey)
        var metadata = previous ?? RepositoryMetadata(timestamp: "", snapshots: [:], targets: [:])
        metadata.targets[String(targetsVersion)] = String(decoding: targets.bytes, as: UTF8.self)
        metadata.snapshots[String(snapshot.signed.version)] = String(decoding: snapshot.bytes, as: UTF8.self)
        metadata.timestamp = try timestamp(
            naming: snapshot, after: previous.map { try $0.currentTimestamp().signed.version } ?? 0, now: now)
        metadata.prune()
        return metadata
    }

    /// The repository with what is due re-signed at `now`, or `nil` when nothing is: a new
    /// timestamp past half its life, everything anew (the same targets) past half of targets'.
    /// With offline targets, whose expiry is their signer's, the snapshot past half its life is
    /// signed anew over the same targets.
    package func refreshed(_ metadata: RepositoryMetadata, now: Date) throws -> RepositoryMetadata? {
        let targets = try metadata.currentTargets()
        if let due = renewal(of: TargetsMetadata.roleName, expiring: targets.signed.expires), now >= due {
            return try publishing(targets.signed.targets, after: metadata, now: now)
        }
        guard let text = metadata.snapshots[String(metadata.snapshotVersion)] else {
            throw TUFError.malformed(role: SnapshotMetadata.roleName, detail: "the repository keeps no snapshot")
        }
        let snapshot = try SignedMetadata<SnapshotMetadata>(bytes: Array(text.utf8))
        if targetsKey == nil, let due = renewal(of: SnapshotMetadata.roleName, expiring: snapshot.signed.expires),
            now >= due
        {
            return try publishing(targets: targets, after: metadata, now: now)
        }
        let current = try metadata.currentTimestamp()
        guard let due = renewal(of: TimestampMetadata.roleName, expiring: current.signed.expires), now >= due else {
            return nil
        }
        var refreshed = metadata
        refreshed.timestamp = try timestamp(naming: snapshot, after: current.signed.version, now: now)
        return refreshed
    }

    /// When metadata of `role` that expires at `expires` is signed anew: at half its life, as
    /// ``refreshed(_:now:)`` does; `nil` for a role whose key is not held here (root, offline
    /// targets), signed anew by whoever holds it. With online targets the snapshot is signed anew
    /// with them, at the same time, as both expire together.
    package func renewal(of role: String, expiring expires: Date) -> Date? {
        guard holdsKey(of: role) else { return nil }
        let lifetime = role == TimestampMetadata.roleName ? timestampLifetime : targetsLifetime
        return expires.addingTimeInterval(-lifetime / 2)
    }

    /// Whether the key of `role` is here (online): timestamp's and snapshot's always, targets'
    /// unless kept offline, root's never.
    package func holdsKey(of role: String) -> Bool {
        switch role {
        case TimestampMetadata.roleName, SnapshotMetadata.roleName: true
        case TargetsMetadata.roleName: targetsKey != nil
        default: false
        }
    }

    private func timestamp(
        naming snapshot: SignedMetadata<SnapshotMetadata>, after version: Int, now: Date
    ) throws
        -> String
    {
        var timestamp = try SignedMetadata(
            TimestampMetadata(
                version: version + 1, expires: now.addingTimeInterval(timestampLifetime),
                snapshot: MetaFile(version: snapshot.signed.version, bytes: snapshot.bytes)))
        try timestamp.sign(with: timestampKey)
        return String(decoding: timestamp.bytes, as: UTF8.self)
    }
}
