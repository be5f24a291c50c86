import Foundation

extension SpecFile {
    /// A resolver document as a spec file: the tokens it resolves to with every modifier at its
    /// default context are its variables, and each context of each modifier is a theme that
    /// overrides the tokens the context changes. Aliases resolve after the merge, as the
    /// Resolver Module says: a theme's overrides go through the same reference resolution.
    ///
    /// A theme is named after its context, or `modifier.context` where two modifiers have a
    /// context of that name. Each combination of contexts other than the defaults of two or more
    /// modifiers is a theme too, its contexts' names joined by `+` in resolution order
    /// (`dark+high`), up to ``maximumCombinedThemes``. A context that defines a token its
    /// modifier's default does not is an error: a Livery theme overrides variables, it cannot
    /// add them.
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
        let variables = SpecNode(.mapping(base.variables), at: resolver.location)
        let tokens = base.tokens
        self.variables = variables
        self.tokens = tokens
        let baseValues = Dictionary(
            tokens.map { token in (token.name, Self.flatValue(variables, token.path)) }, uniquingKeysWith: { a, _ in a }
        )

        for choice in Self.themeChoices(steps, at: resolver.location, errors: &errors) {
            let resolved = Self.resolve(steps, choosing: choice.choosing)
            record(resolved.errors)
            let themeVariables = SpecNode(.mapping(resolved.variables), at: choice.location)
            var overrides: [Entry] = []
            for token in resolved.tokens {
                let value = Self.flatValue(themeVariables, token.path)
                guard let old = baseValues[token.name] else {
                    // Reported once, by the context alone; a combination adds nothing to say.
                    if let single = choice.single {
                        record([
                            SpecError(
                                .unknownKey, at: token.keyLocation,
                                "token '\(token.name)' is defined only in context '\(single.context)' of modifier '\(single.modifier)'; a theme overrides tokens the default resolution defines, so define it there too"
                            )
                        ])
                    }
                    continue
                }
                if let value, let old, value.hasSameContent(as: old) { continue }
                if let value {
                    overrides.append(Entry(path: token.path[...], value: value, key: token.keyLocation))
                }
            }
            themes.append(
                Theme(
                    name: choice.name, location: choice.location,
                    overrides: SpecNode(.mapping(Self.nested(overrides[...])), at: choice.location)))
        }
    }

    /// The most themes made of combined contexts: beyond it a resolver is refused, where it starts.
    static let maximumCombinedThemes = 256

    /// A theme a resolver makes: the contexts it chooses (step index → context index).
    private struct ThemeChoice {
        var name: String
        var choosing: [Int: Int]
        /// Where the theme is placed: its last context.
        var location: SourceLocation
        /// The context and its modifier, for a theme of one context.
        var single: (context: String, modifier: String)?
    }

    /// Each context of each modifier, then each combination of contexts other than the
    /// defaults of two or more modifiers.
    private static func themeChoices(
        _ steps: [TokenResolver.Step], at location: SourceLocation, errors: inout [SpecError]
    ) -> [ThemeChoice] {
        var contextCount: [String: Int] = [:]
        for step in steps where step.isModifier {
            for context in step.contexts { contextCount[context.name, default: 0] += 1 }
        }
        func name(_ step: TokenResolver.Step, _ context: TokenResolver.Context) -> String {
            contextCount[context.name, default: 0] > 1 ? "\(step.name).\(context.name)" : context.name
        }
        // Every choice of one context other than the default, or none, per modifier: the product
        // of (1 + contexts other than the default), less the choices of fewer than two.
        let others = steps.filter(\.isModifier).map { $0.contexts.count - 1 }
        var choices = 1
        for count in others { choices = min(choices * (1 + count), 1 << 40) }  // no overflow: a cap far past the limit
        let tooMany = choices - 1 - others.reduce(0, +) > maximumCombinedThemes
        if tooMany {
            errors.append(
                SpecError(
                    .invalidValue, at: location,
                    "the modifiers' contexts combine into more than \(maximumCombinedThemes) themes (Livery makes a theme of each combination); use fewer modifiers or contexts"
                ))
        }
        var singles: [ThemeChoice] = []
        var combined = [ThemeChoice(name: "", choosing: [:], location: location)]
        for (stepIndex, step) in steps.enumerated() where step.isModifier {
            var next = combined
            for (contextIndex, context) in step.contexts.enumerated() {
                singles.append(
                    ThemeChoice(
                        name: name(step, context), choosing: [stepIndex: contextIndex], location: context.location,
                        single: (context.name, step.name)))
                guard contextIndex != step.defaultIndex, !tooMany else { continue }
                for partial in combined {
                    next.append(
                        ThemeChoice(
                            name: partial.name.isEmpty ? name(step, context) : partial.name + "+" + name(step, context),
                            choosing: partial.choosing.merging([stepIndex: contextIndex]) { $1 },
                            location: context.location))
                }
            }
            combined = next
        }
        return singles + combined.filter { $0.choosing.count >= 2 }
    }

    /// The tokens of the resolution order with each modifier at its default context, except
    /// those in `choosing` (step index → context index), and their variables.
    private static func resolve(
        _ steps: [TokenResolver.Step], choosing: [Int: Int]
    ) -> TokensReader {
        var tree: [SpecNode.Member] = []
        var location: SourceLocation?
        for (index, step) in steps.enumerated() {
            let context = step.contexts[choosing[index] ?? step.defaultIndex]
            for source in context.sources {
                location = location ?? source.location
                tree = TokensReader.merged(inherited: tree, local: source.members ?? [])
            }
        }
        return TokensReader(
            root: SpecNode(.mapping(tree), at: location ?? .start(of: "<resolver>")), pointsIntoItself: true)
    }

    private static func flatValue(_ variables: SpecNode, _ path: [String]) -> SpecNode? {
        var node: SpecNode? = variables
        for part in path { node = node?[part] }
        return node
    }
}
