import Foundation

extension SpecFile {
    /// A resolver document as a spec file: the tokens it resolves to with every modifier at its
    /// default context are its variables, and each context of each modifier is a theme that
    /// overrides the tokens the context changes. Aliases resolve after the merge, as the
    /// Resolver Module says: a theme's overrides go through the same reference resolution.
    ///
    /// A theme is named after its context, or `modifier.context` where two modifiers have a
    /// context of that name. A context that defines a token its modifier's default does not is
    /// an error: a Livery theme overrides variables, it cannot add them.
    init(resolverAt path: String, resolver: TokenResolver, errors: inout [SpecError]) {
        self.path = path
        errors += resolver.errors
        let steps = resolver.steps
        var seen = Set(errors.map(\.description))
        func record(_ new: [SpecError]) {
            for error in new where seen.insert(error.description).inserted { errors.append(error) }
        }
        let base = Self.resolve(steps, choosing: [:])
        record(base.errors)
        let (variables, tokens) = Self.variables(of: base.tokens, at: resolver.location, errors: &errors)
        self.variables = variables
        self.tokens = tokens
        let baseValues = Dictionary(
            tokens.map { token in (token.name, Self.flatValue(variables, token.path)) }, uniquingKeysWith: { a, _ in a }
        )

        var contextCount: [String: Int] = [:]
        for step in steps where step.isModifier {
            for context in step.contexts { contextCount[context.name, default: 0] += 1 }
        }
        for (stepIndex, step) in steps.enumerated() where step.isModifier {
            for (contextIndex, context) in step.contexts.enumerated() {
                let name = contextCount[context.name, default: 0] > 1 ? "\(step.name).\(context.name)" : context.name
                let resolved = Self.resolve(steps, choosing: [stepIndex: contextIndex])
                record(resolved.errors)
                var conversionErrors: [SpecError] = []
                let (themeVariables, themeTokens) = Self.variables(
                    of: resolved.tokens, at: context.location, errors: &conversionErrors)
                record(conversionErrors)
                var overrides: [Entry] = []
                for token in themeTokens {
                    let value = Self.flatValue(themeVariables, token.path)
                    guard let old = baseValues[token.name] else {
                        record([
                            SpecError(
                                .unknownKey, at: token.keyLocation,
                                "token '\(token.name)' is defined only in context '\(context.name)' of modifier '\(step.name)'; a theme overrides tokens the default resolution defines, so define it there too"
                            )
                        ])
                        continue
                    }
                    if let value, let old, value.hasSameContent(as: old) { continue }
                    if let value {
                        overrides.append(Entry(path: token.path[...], value: value, key: token.keyLocation))
                    }
                }
                themes.append(
                    Theme(
                        name: name, location: context.location,
                        overrides: SpecNode(.mapping(Self.nested(overrides[...])), at: context.location)))
            }
        }
    }

    /// The tokens of the resolution order with each modifier at its default context, except
    /// those in `choosing` (step index → context index).
    private static func resolve(
        _ steps: [TokenResolver.Step], choosing: [Int: Int]
    ) -> (tokens: [DesignToken], errors: [SpecError]) {
        var tree: [SpecNode.Member] = []
        var location: SourceLocation?
        for (index, step) in steps.enumerated() {
            let context = step.contexts[choosing[index] ?? step.defaultIndex]
            for source in context.sources {
                location = location ?? source.location
                tree = TokensReader.merged(inherited: tree, local: source.members ?? [])
            }
        }
        let reader = TokensReader(root: SpecNode(.mapping(tree), at: location ?? .start(of: "<resolver>")))
        return (reader.tokens, reader.errors)
    }

    private static func flatValue(_ variables: SpecNode, _ path: [String]) -> SpecNode? {
        var node: SpecNode? = variables
        for part in path { node = node?[part] }
        return node
    }
}
