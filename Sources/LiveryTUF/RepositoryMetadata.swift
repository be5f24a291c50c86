/// The metadata of the online roles a repository serves: the current timestamp, and the
/// snapshot and targets files of the last few versions (a client that read a timestamp fetches
/// the snapshot it names, and that snapshot's targets, a moment later).
///
/// What a repository keeps across restarts and shares between daemons (a store record), so that
/// versions never go back: the files as the bytes served, in UTF-8.
package struct RepositoryMetadata: Codable, Hashable, Sendable {
    /// How many versions of snapshot and targets are kept.
    package static let keptVersions = 8

    package var timestamp: String
    /// Snapshot files by version (in decimal: JSON keys are strings).
    package var snapshots: [String: String]
    package var targets: [String: String]

    package init(timestamp: String, snapshots: [String: String], targets: [String: String]) {
        self.timestamp = timestamp
        self.snapshots = snapshots
        self.targets = targets
    }

    /// The newest version of snapshot and targets kept.
    package var snapshotVersion: Int { snapshots.keys.compactMap { Int($0) }.max() ?? 0 }
    package var targetsVersion: Int { targets.keys.compactMap { Int($0) }.max() ?? 0 }

    /// The current timestamp metadata.
    package func currentTimestamp() throws(TUFError) -> SignedMetadata<TimestampMetadata> {
        try SignedMetadata(bytes: Array(timestamp.utf8))
    }

    /// The newest targets metadata.
    package func currentTargets() throws(TUFError) -> SignedMetadata<TargetsMetadata> {
        guard let text = targets[String(targetsVersion)] else {
            throw .malformed(role: TargetsMetadata.roleName, detail: "the repository keeps no targets metadata")
        }
        return try SignedMetadata(bytes: Array(text.utf8))
    }

    /// Keeps only the newest ``keptVersions`` of snapshot and targets.
    mutating func prune() {
        for keep in [\Self.snapshots, \Self.targets] {
            let versions = self[keyPath: keep].keys.compactMap { Int($0) }.sorted()
            for old in versions.dropLast(Self.keptVersions) { self[keyPath: keep][String(old)] = nil }
        }
    }
}
