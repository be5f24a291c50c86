package import Foundation

/// Snapshot metadata: the version of every targets metadata file (`targets.json`).
package struct SnapshotMetadata: RoleMetadata, Hashable {
    package static let roleName = "snapshot"
    package var type = roleName
    package var specVersion = tufSpecificationVersion
    package var version: Int
    package var expires: Date
    package var meta: [String: MetaFile]

    package init(version: Int, expires: Date, meta: [String: MetaFile]) {
        self.version = version
        self.expires = expires
        self.meta = meta
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case specVersion = "spec_version"
        case version, expires, meta
    }
}
