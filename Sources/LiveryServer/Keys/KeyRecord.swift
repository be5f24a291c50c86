import Foundation

/// A key as the daemon keeps it: what it may do, the SHA-256 of its secret (never the secret),
/// when it was made and when it was last used. One per file entry or etcd key (`PREFIX/keys/NAME`).
package struct KeyRecord: Codable, Hashable, Sendable {
    /// Its name, scopes and environments.
    package var grant: KeyGrant
    /// The SHA-256 of the key, lowercase hex.
    package var sha256: String
    /// When it was made, ISO 8601.
    package var created: String
    /// When a request last carried it, ISO 8601, to the minute; `nil` before its first use.
    package var lastUsed: String?

    private enum CodingKeys: String, CodingKey {
        case name, scopes, environments, sha256, created, lastUsed
    }

    package init(grant: KeyGrant, sha256: String, created: String, lastUsed: String? = nil) {
        self.grant = grant
        self.sha256 = sha256
        self.created = created
        self.lastUsed = lastUsed
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        grant = KeyGrant(
            name: try container.decode(String.self, forKey: .name),
            scopes: try container.decode([KeyScope].self, forKey: .scopes),
            environments: try container.decode([String].self, forKey: .environments))
        sha256 = try container.decode(String.self, forKey: .sha256)
        created = try container.decode(String.self, forKey: .created)
        lastUsed = try container.decodeIfPresent(String.self, forKey: .lastUsed)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(grant.name, forKey: .name)
        try container.encode(grant.scopes, forKey: .scopes)
        try container.encode(grant.environments, forKey: .environments)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(created, forKey: .created)
        try container.encodeIfPresent(lastUsed, forKey: .lastUsed)
    }

    /// The record as `GET /v1/keys` lists it: everything but the hash.
    package var listed: KeyListing {
        KeyListing(
            name: grant.name, scopes: grant.scopes, environments: grant.environments, created: created,
            lastUsed: lastUsed)
    }
}

/// One key in `GET /v1/keys`: never the key, nor its hash. The keys given on the command line
/// have no dates.
package struct KeyListing: Codable, Hashable, Sendable {
    package var name: String
    package var scopes: [KeyScope]
    package var environments: [String]
    package var created: String?
    package var lastUsed: String?
}
