extension Spec {
    /// The spec's variables under `theme` (nil: no theme), with the theme's overrides laid over
    /// them and every `@reference` and `~function` inside them substituted: the values a program
    /// reads as settings rather than through traits.
    ///
    /// Traits read only the variables they name; this resolves all of them, so it reports a bad
    /// variable no trait uses.
    ///
    /// - Throws: ``SpecError`` for an unknown theme, an unresolved reference, a cycle or a bad
    ///   colour function, located where the variable is.
    public func resolvedVariables(theme: String? = nil) throws(SpecError) -> SpecNode {
        let variables = try variables(theme: theme)
        var scope = VariableScope(variables: variables)
        return try scope.substitute(variables)
    }

    /// The variables as written under `theme` (nil: no theme): the theme's overrides laid over
    /// them, references not yet substituted.
    func variables(theme: String?) throws(SpecError) -> SpecNode {
        guard let theme else { return document.variables }
        guard let overrides = document.themes.first(where: { $0.name == theme })?.overrides else {
            let known = themes.map { "'\($0)'" }.joined(separator: ", ")
            throw SpecError(
                .unknownTheme, at: .start(of: "<theme>"),
                "unknown theme '\(theme)'; " + (known.isEmpty ? "the spec defines no themes" : "expected \(known)"))
        }
        return try ThemeOverlay.apply(overrides, to: document.variables, theme: theme)
    }
}
