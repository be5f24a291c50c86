/// Resolves a ``SpecDocument`` for one theme: substitutes variables, decodes each entry into a
/// trait through the registry, and flattens `Inherit`. Reports every error it can find.
struct SpecResolver {
    private enum Item {
        case trait(ResolvedTrait, content: String)
        case inherit([String], location: SourceLocation)
    }

    private let document: SpecDocument
    private let registry: TraitRegistry
    private var scope: VariableScope
    private var items: [String: [Item]] = [:]
    private var flattened: [String: [(ResolvedTrait, String)]] = [:]
    private var errors: [SpecError] = []

    static func resolve(
        _ document: SpecDocument, registry: TraitRegistry, theme: String?
    ) -> (Resolution, [SpecError]) {
        var variables = document.variables
        if let theme, let overrides = document.themes.first(where: { $0.name == theme })?.overrides {
            do {
                variables = try ThemeOverlay.apply(overrides, to: variables, theme: theme)
            } catch {
                return (.empty, [error])
            }
        }
        var resolver = SpecResolver(document: document, registry: registry, scope: VariableScope(variables: variables))
        return resolver.run()
    }

    private init(document: SpecDocument, registry: TraitRegistry, scope: VariableScope) {
        self.document = document
        self.registry = registry
        self.scope = scope
    }

    private mutating func run() -> (Resolution, [SpecError]) {
        for identifier in document.identifiers {
            items[identifier.name] = identifier.entries.compactMap { decode($0) }
        }
        var lists: [Resolution.List] = []
        lists.reserveCapacity(document.identifiers.count)
        for identifier in document.identifiers {
            var stack: [String] = []
            let traits = flatten(identifier.name, stack: &stack)
            lists.append(Resolution.List(traits: traits.map(\.0), contentKey: traits.map(\.1).joined(separator: "\n")))
        }
        return (Resolution(order: document.identifiers.map(\.name), lists: lists), errors)
    }

    private mutating func decode(_ entry: SpecNode) -> Item? {
        do throws(SpecError) {
            let resolved = try scope.substitute(entry)
            guard let members = resolved.members else {
                throw SpecError(.typeMismatch, at: entry.location,
                    "expected a trait (a mapping with a 'type'), found \(resolved.foundDescription)")
            }
            guard let typeNode = members.first(where: { $0.key == "type" })?.value else {
                throw SpecError(.missingKey, at: entry.location, "trait has no 'type'")
            }
            guard let typeName = typeNode.string else {
                throw SpecError(.typeMismatch, at: typeNode.location,
                    "expected a trait type name, found \(typeNode.foundDescription)")
            }
            guard let type = registry.type(named: typeName) else {
                let hint = Suggestion.closest(to: typeName, in: registry.typeNames).map { "; did you mean '\($0)'?" } ?? ""
                throw SpecError(.unknownTrait, at: typeNode.location, "unknown trait type '\(typeName)'\(hint)")
            }
            let trait = try type.decode(resolved)
            if let inherit = trait as? Inherit {
                return .inherit(inherit.traits, location: entry.location)
            }
            return .trait(ResolvedTrait(trait: trait, location: entry.location, type: type), content: resolved.canonicalJSON)
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// How deep `Inherit`s may nest: flattening recurses once per level.
    static let maximumInheritDepth = 64
    /// How many traits one identifier may flatten to: `Inherit: [a, a]` doubles a list per
    /// level, so a small file could otherwise ask for 2^40 traits.
    static let maximumTraitsPerIdentifier = 4_096

    private mutating func flatten(_ name: String, stack: inout [String]) -> [(ResolvedTrait, String)] {
        if let done = flattened[name] { return done }
        stack.append(name)
        defer { stack.removeLast() }
        var result: [(ResolvedTrait, String)] = []
        for item in items[name] ?? [] {
            switch item {
            case .trait(let trait, let content):
                result.append((trait, content))
            case .inherit(let names, let location):
                for inherited in names {
                    if let start = stack.firstIndex(of: inherited) {
                        let cycle = (stack[start...] + [inherited]).joined(separator: " → ")
                        errors.append(SpecError(.cycle, at: location, "Inherit cycle: \(cycle)"))
                    } else if items[inherited] == nil {
                        let hint = Suggestion.closest(to: inherited, in: document.identifiers.map(\.name))
                            .map { "; did you mean '\($0)'?" } ?? ""
                        errors.append(SpecError(.unresolvedReference, at: location,
                            "Inherit names unknown identifier '\(inherited)'\(hint)"))
                    } else if stack.count >= Self.maximumInheritDepth {
                        errors.append(SpecError(.limitExceeded, at: location,
                            "Inherit nests more than \(Self.maximumInheritDepth) identifiers deep (\(stack[0]) → … → \(inherited)); the limit is \(Self.maximumInheritDepth)"))
                    } else {
                        result += flatten(inherited, stack: &stack)
                    }
                }
            }
            if result.count > Self.maximumTraitsPerIdentifier {
                errors.append(SpecError(.limitExceeded, at: document.identifiers.first { $0.name == name }?.location ?? .start(of: "<spec>"),
                    "'\(name)' flattens to more than \(Self.maximumTraitsPerIdentifier) traits through Inherit; the limit is \(Self.maximumTraitsPerIdentifier)"))
                result.removeLast(result.count - Self.maximumTraitsPerIdentifier)
                break
            }
        }
        flattened[name] = result
        return result
    }
}
