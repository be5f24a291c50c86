extension Spec {
    /// The design tokens the spec's variables were read from, by name.
    public var tokens: [DesignToken] {
        document.tokens.values.sorted { $0.name < $1.name }
    }

    /// The design token a variable was read from, if it was: `token(named: "color.brand.primary")`.
    public func token(named name: String) -> DesignToken? {
        document.tokens[name]
    }

    /// A warning at each place that references a deprecated design token (`$deprecated`), in a
    /// trait or in another variable, in document order.
    public var warnings: [SpecWarning] {
        let deprecated = document.tokens.filter { $0.value.deprecation != nil }
        guard !deprecated.isEmpty else { return [] }
        var warnings: [SpecWarning] = []
        func scan(_ node: SpecNode) {
            switch node.value {
            case .string(let text) where VariableScope.lead(of: text) != .plain:
                for name in Self.referencedNames(text) {
                    guard let token = deprecated[name], let reason = token.deprecation else { continue }
                    let why = reason.isEmpty ? "" : ": \(reason)"
                    warnings.append(
                        SpecWarning(
                            at: node.location, "'@\(name)' is deprecated\(why) (defined at \(place: token.location))"))
                }
            case .sequence(let items): items.forEach(scan)
            case .mapping(let members): members.forEach { scan($0.value) }
            default: break
            }
        }
        scan(document.variables)
        for theme in document.themes { scan(theme.overrides) }
        for identifier in document.identifiers { identifier.entries.forEach(scan) }
        return warnings
    }

    /// The variable names a value reads: `@a.b` whole, or each `@…` inside a `~function(…)`.
    private static func referencedNames(_ text: String) -> [String] {
        switch VariableScope.lead(of: text) {
        case .escaped, .plain: []
        case .reference: [String(text.dropFirst())]
        case .function: text.matches(of: /@([^\s,()@]+)/).map { String($0.output.1) }
        }
    }
}

extension Spec {
    /// The media type of a design tokens document.
    public static let tokensMediaType = "application/design-tokens+json"

    /// The spec's variables (from YAML, JSON and token files alike) as one design tokens
    /// document (Format Module 2025.10), readable back as a `*.tokens.json` file. Tokens read
    /// from files are written as they were read; other variables are typed by their kind, and
    /// values the format has no type for carry their kind in `$extensions["dev.livery"]`.
    public var tokensDocument: SpecNode { TokensExport.document(of: document, variables: document.variables) }

    /// The variables under `theme` as one design tokens document: ``tokensDocument`` with the
    /// theme's values in place of those it overrides (a theme from a resolver document's
    /// context, from a YAML `themes:` entry alike). An overridden token keeps its `$type`,
    /// `$description`, `$deprecated` and `$extensions`; its `$value` is the theme's.
    ///
    /// - Throws: ``SpecError`` for a theme the spec does not define.
    public func tokensDocument(theme: String) throws(SpecError) -> SpecNode {
        TokensExport.document(of: document, variables: try variables(theme: theme))
    }
}

extension Color {
    /// The colour as a design token's `$value` (Color Module 2025.10): `srgb` components and
    /// alpha that read back to the same bytes, and the 6-digit hex fallback.
    package func designTokenValue(at location: SourceLocation = SpecNode.built) -> SpecNode {
        TokenColor.node(self, at: location)
    }
}
