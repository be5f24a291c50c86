package import Foundation

/// Root metadata: every role's keys and threshold, root's own included.
package struct RootMetadata: RoleMetadata, Hashable {
    package static let roleName = "root"
    package var type = roleName
    package var specVersion = tufSpecificationVersion
    package var version: Int
    package var expires: Date
    package var consistentSnapshot = true
    package var keys: [String: PublicKey]
    package var roles: [String: RoleKeys]

    package init(version: Int, expires: Date, keys: [String: PublicKey], roles: [String: RoleKeys]) {
        self.version = version
        self.expires = expires
        self.keys = keys
        self.roles = roles
    }

    /// The keys and threshold root gives `role`.
    package func keys(of role: String) throws(TUFError) -> RoleKeys {
        guard let keys = roles[role] else { throw .unknownRole(role) }
        return keys
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case specVersion = "spec_version"
        case version, expires
        case consistentSnapshot = "consistent_snapshot"
        case keys, roles
    }
}
