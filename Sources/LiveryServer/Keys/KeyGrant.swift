/// What one key may do, and where: its scopes and the environments it holds them on (`*`: every
/// environment). What ``GET /v1/keys/self`` answers.
package struct KeyGrant: Codable, Hashable, Sendable {
    /// The key's name, as it appears in the history and the log of every write made with it.
    package var name: String
    /// Its scopes, sorted.
    package var scopes: [KeyScope]
    /// The environments it holds them on, sorted; `["*"]` for every environment.
    package var environments: [String]

    /// The environment name that stands for every environment.
    package static let everyEnvironment = "*"

    package init(name: String, scopes: [KeyScope], environments: [String]) {
        self.name = name
        self.scopes = Array(Set(scopes)).sorted()
        self.environments = Array(Set(environments)).sorted()
    }

    /// Whether the key may do what `scope` allows in `environment`.
    package func allows(_ scope: KeyScope, in environment: String) -> Bool {
        scopes.contains { $0.grants(scope) } && covers(environment)
    }

    /// Whether the key holds its scopes in `environment`.
    package func covers(_ environment: String) -> Bool {
        environments.contains(Self.everyEnvironment) || environments.contains(environment)
    }
}
