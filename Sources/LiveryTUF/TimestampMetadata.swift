package import Foundation

/// Timestamp metadata: the current snapshot (`snapshot.json`), re-signed often with a short expiry.
package struct TimestampMetadata: RoleMetadata, Hashable {
    package static let roleName = "timestamp"
    package var type = roleName
    package var specVersion = tufSpecificationVersion
    package var version: Int
    package var expires: Date
    package var meta: [String: MetaFile]

    package init(version: Int, expires: Date, snapshot: MetaFile) {
        self.version = version
        self.expires = expires
        meta = ["snapshot.json": snapshot]
    }

    /// What this timestamp says of the snapshot.
    package var snapshot: MetaFile? { meta["snapshot.json"] }

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case specVersion = "spec_version"
        case version, expires, meta
    }
}
