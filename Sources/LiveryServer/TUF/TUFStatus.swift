import Foundation
import LiveryTUF

/// `GET /v1/tuf/status`: each role's key ids and threshold, the version and expiry of its
/// current metadata, whether this daemon holds its key and, if so, when it signs it anew.
struct TUFStatus: Encodable {
    struct Role: Encodable {
        var keyids: [String]
        var threshold: Int
        var version: Int?
        var expires: Date?
        /// Whether the daemon holds the role's key (root's never; targets' not with `--offline-targets`).
        var online: Bool
        /// When the daemon signs the role's metadata anew (``LiveryTUF/OnlineRoles/renewal(of:expiring:)``);
        /// `nil` for an offline key or before anything is signed.
        var renews: Date?
    }

    var roles: [String: Role]

    init(_ repository: TUFRepository) throws {
        let root = try repository.folder.latestRoot().signed
        let metadata = repository.files?.metadata
        let timestamp = try metadata?.currentTimestamp().signed
        let targets = try metadata?.currentTargets().signed
        let versions: [String: (Int, Date)?] = [
            RootMetadata.roleName: (root.version, root.expires),
            TimestampMetadata.roleName: timestamp.map { ($0.version, $0.expires) },
            TargetsMetadata.roleName: targets.map { ($0.version, $0.expires) },
            SnapshotMetadata.roleName: try metadata.flatMap { metadata in
                try metadata.snapshots[String(metadata.snapshotVersion)].map {
                    let snapshot = try SignedMetadata<SnapshotMetadata>(bytes: Array($0.utf8)).signed
                    return (snapshot.version, snapshot.expires)
                }
            },
        ]
        let online = repository.roles
        roles = [:]
        for (name, keys) in root.roles {
            let current = versions[name] ?? nil
            roles[name] = Role(
                keyids: keys.keyids, threshold: keys.threshold, version: current?.0, expires: current?.1,
                online: online.holdsKey(of: name),
                renews: current.flatMap { online.renewal(of: name, expiring: $0.1) })
        }
    }
}
