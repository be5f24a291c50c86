package import Foundation

/// Targets metadata: the files a client may download, by name.
package struct TargetsMetadata: RoleMetadata, Hashable {
    package static let roleName = "targets"
    package var type = roleName
    package var specVersion = tufSpecificationVersion
    package var version: Int
    package var expires: Date
    package var targets: [String: TargetFile]

    package init(version: Int, expires: Date, targets: [String: TargetFile]) {
        self.version = version
        self.expires = expires
        self.targets = targets
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case specVersion = "spec_version"
        case version, expires, targets
    }
}
