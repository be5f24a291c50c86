/// Checks every design token of a merged document, whether a trait uses it or not: each
/// reference reaches a token (or variable), no chain of references loops, and an alias names a
/// token of its own type. Under the base variables and under every theme; each error once.
enum TokenChecks {
    static func errors(_ document: SpecDocument) -> [SpecError] {
        guard !document.tokens.isEmpty else { return [] }
        // A token whose value names no other resolves to itself and has no type to match:
        // only the others can fail. Sorted by place, so errors come in document order.
        let referring = inDocumentOrder(document.referringTokens)
        var errors: [SpecError] = []
        var seen: Set<String> = []
        func record(_ error: SpecError) {
            if seen.insert(error.description).inserted { errors.append(error) }
        }
        let chains = referring.map { followAliases($0, in: document) }
        for chain in chains { chain.mismatch.map(record) }
        var themeLayers: [SpecNode] = []
        for theme in document.themes {
            do {
                themeLayers.append(try ThemeOverlay.apply(theme.overrides, to: document.variables, theme: theme.name))
            } catch {
                record(error)
            }
        }
        // The base variables hold each token's own variable, so an alias whose chain of tokens
        // ends at a literal resolves there; a theme may override any variable on the way.
        var base = VariableScope(variables: document.variables)
        for (token, chain) in zip(referring, chains) where !chain.resolves {
            resolve(token, in: &base).map(record)
        }
        for variables in themeLayers {
            var scope = VariableScope(variables: variables)
            for token in referring { resolve(token, in: &scope).map(record) }
        }
        return errors
    }

    /// The error resolving `token`'s variable in `scope` reports, if it does.
    private static func resolve(_ token: DesignToken, in scope: inout VariableScope) -> SpecError? {
        do {
            _ = try scope.value(of: token.name, at: token.location)
            return nil
        } catch {
            return error
        }
    }

    /// The tokens by place (file, line, column), sorting only the places.
    private static func inDocumentOrder(_ tokens: [DesignToken]) -> [DesignToken] {
        let places = tokens.map(\.location)
        let order = places.indices.sorted { a, b in
            // Most tokens share a file: compare its name only where the names differ.
            guard places[a].name == places[b].name else { return places[a].file < places[b].file }
            return (places[a].line, places[a].column) < (places[b].line, places[b].column)
        }
        return order.map { tokens[$0] }
    }

    /// Follows the chain of aliases `token` starts through the token table. `mismatch`: a typed
    /// alias whose chain reaches a token that declares another type first. `resolves`: the base
    /// variables resolve `token` for certain, seen from the table alone: the chain is short and
    /// reaches a token whose value holds no reference of either kind (`{…}`, `@…`, `~…`). Each
    /// of those tokens' variables is its value converted (an alias `{a.b}` is `@a.b`), so the
    /// scope would follow the same chain to the same literal. Anything else (a chain that leaves
    /// the tokens, is long or loops, a value with references inside, a variable Livery's
    /// extension makes an expression) is the scope's to resolve and to report with its place.
    private static func followAliases(
        _ token: DesignToken, in document: SpecDocument
    ) -> (mismatch: SpecError?, resolves: Bool) {
        var mismatch: SpecError?
        var declared = token.type
        var plain = TokenValue.expression(of: token) == nil
        var current = token
        // Past the scope's own bound on a chain: such a chain is the scope's error, and a
        // loop ends here.
        for step in 0..<VariableScope.maximumReferenceDepth {
            guard let path = TokenValue.referencePath(current.value), let target = document.tokens[path] else { break }
            if let wanted = declared, let type = target.type {
                if type != wanted {
                    mismatch = SpecError(
                        .typeMismatch, at: token.location,
                        "token '\(token.name)' is a \(wanted.rawValue) but its value '{\(path)}' is a \(type.rawValue)")
                }
                declared = nil
            }
            plain = plain && TokenValue.expression(of: target) == nil
            if target.isLiteral {
                return (mismatch, plain && step < VariableScope.maximumReferenceDepth / 2)
            }
            current = target
        }
        return (mismatch, false)
    }
}
