import Foundation
import LiveryTUF

/// `GET /v1/tuf/status`: each role's key ids, and the version and expiry of each role's
/// current metadata.
struct TUFStatus: Encodable {
    struct Role: Encodable {
        var keyids: [String]
        var threshold: Int
        var version: Int?
        var expires: Date?
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
        roles = [:]
        for (name, keys) in root.roles {
            let current = versions[name] ?? nil
            roles[name] = Role(keyids: keys.keyids, threshold: keys.threshold, version: current?.0, expires: current?.1)
        }
    }
}
