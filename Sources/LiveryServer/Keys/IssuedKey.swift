/// What `POST /v1/keys` answers: the new key's grant and the key itself, shown this once.
package struct IssuedKey: Codable, Hashable, Sendable {
    package var name: String
    package var scopes: [KeyScope]
    package var environments: [String]
    package var key: String

    package init(grant: KeyGrant, key: String) {
        name = grant.name
        scopes = grant.scopes
        environments = grant.environments
        self.key = key
    }
}
