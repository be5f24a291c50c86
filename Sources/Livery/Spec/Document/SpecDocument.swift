/// Every file of a spec merged into one document: variables, themes and identifiers, each
/// defined once, with includes already followed.
struct SpecDocument: Sendable {
    struct Identifier: Sendable {
        var name: String
        var location: SourceLocation
        var entries: [SpecNode]
    }

    /// The merged variables, a mapping (empty when no file defines any).
    var variables: SpecNode
    /// Theme name → merged overrides, in order of first definition.
    var themes: [(name: String, location: SourceLocation, overrides: SpecNode)]
    /// Identifiers in document order.
    var identifiers: [Identifier]
    /// The files merged, in merge order.
    var files: [String]
    /// The design tokens the variables were read from, by name (`color.brand.primary`).
    var tokens: [String: DesignToken] = [:]
    /// The tokens of ``tokens`` whose value holds a reference `{…}`: the only ones the checks of
    /// aliases (``TokenChecks``) follow.
    var referringTokens: [DesignToken] = []

    /// The document in the spec format itself, as one mapping: what `GET /v1/spec` serves and
    /// `Spec(json:)` reads back.
    var bundleNode: SpecNode {
        let here = SourceLocation.start(of: "<bundle>")
        func member(_ key: String, _ value: SpecNode) -> SpecNode.Member {
            SpecNode.Member(key: key, keyLocation: here, value: value)
        }
        let themes = themes.map { member($0.name, $0.overrides) }
        let specs = identifiers.map { member($0.name, SpecNode(.sequence($0.entries), at: $0.location)) }
        return SpecNode(
            .mapping([
                member("variables", variables),
                member("themes", SpecNode(.mapping(themes), at: here)),
                member("specs", SpecNode(.mapping(specs), at: here)),
            ]), at: here)
    }
}
