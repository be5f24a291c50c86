/// Checks every design token of a merged document, whether a trait uses it or not: each
/// reference reaches a token (or variable), no chain of references loops, and an alias names a
/// token of its own type. Under the base variables and under every theme; each error once.
enum TokenChecks {
    static func errors(_ document: SpecDocument) -> [SpecError] {
        guard !document.tokens.isEmpty else { return [] }
        // A token whose value names no other resolves to itself and has no type to match:
        // only the others can fail. Sorted by place, so errors come in document order.
        let referring = document.tokens.values.filter { hasReference($0.value) }.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < (
                $1.location.file, $1.location.line, $1.location.column
            )
        }
        var errors: [SpecError] = []
        var seen: Set<String> = []
        func record(_ error: SpecError) {
            if seen.insert(error.description).inserted { errors.append(error) }
        }
        for token in referring { typeCheck(token, in: document).map(record) }
        var layers: [SpecNode] = [document.variables]
        for theme in document.themes {
            do {
                layers.append(try ThemeOverlay.apply(theme.overrides, to: document.variables, theme: theme.name))
            } catch {
                record(error)
            }
        }
        for variables in layers {
            var scope = VariableScope(variables: variables)
            for token in referring {
                do {
                    _ = try scope.value(of: token.name, at: token.location)
                } catch {
                    record(error)
                }
            }
        }
        return errors
    }

    /// A type mismatch between a typed alias and the token it names, following the chain to
    /// the first token that declares a type.
    private static func typeCheck(_ token: DesignToken, in document: SpecDocument) -> SpecError? {
        guard let declared = token.type, var path = TokenValue.referencePath(token.value) else { return nil }
        var visited: Set<String> = [token.name]
        while let target = document.tokens[path], visited.insert(path).inserted {
            if let type = target.type {
                guard type != declared else { return nil }
                return SpecError(
                    .typeMismatch, at: token.location,
                    "token '\(token.name)' is a \(declared.rawValue) but its value '{\(path)}' is a \(type.rawValue)")
            }
            guard let next = TokenValue.referencePath(target.value) else { return nil }
            path = next
        }
        return nil
    }

    /// Whether a value holds a reference `{…}` anywhere.
    private static func hasReference(_ node: SpecNode) -> Bool {
        switch node.value {
        case .string: TokenValue.referencePath(node) != nil
        case .sequence(let items): items.contains(where: hasReference)
        case .mapping(let members): members.contains { hasReference($0.value) }
        case .null, .bool, .int, .double: false
        }
    }
}
