/// Resolves a ``SpecDocument`` for its base variables and for each theme: substitutes
/// variables, decodes each entry into a trait through the registry, and flattens the `Inherit`
/// directive (`InheritDirective`), the one entry that is not a trait.
/// Reports every error it can find.
///
/// A theme re-decodes only the entries its overrides can change (those reading an overridden
/// variable, directly or through other variables) and reuses the base's decoded traits for
/// the rest: decoding is most of the cost of reading a spec, and themes usually override a
/// few colours.
struct SpecResolver {
    private enum Item {
        case trait(ResolvedTrait, content: ContentDigest)
        case inherit([String], location: SourceLocation)
        /// A trait type the registry does not know; its error is reported too, and
        /// ``UnknownTraitPolicy`` decides whether it rejects the spec or skips the identifier.
        case unknown(type: String, location: SourceLocation)
    }

    /// What a theme reuses of the base resolution.
    private struct Base {
        let resolver: SpecResolver
        let resolution: Resolution
    }

    private let document: SpecDocument
    private let registry: TraitRegistry
    private var scope: VariableScope
    /// Each identifier's position in the document: what everything below is kept by, so that
    /// an identifier's name is hashed once per read, not at every step.
    private let positions: [String: Int]
    /// Each identifier's entries, decoded; nil where an entry has an error.
    private var items: [[Item?]]
    /// The variable paths each entry reads directly, entry by entry (the base's only).
    private var reads: [[[String]]] = []
    private var flattened: [[(ResolvedTrait, ContentDigest)]?]
    /// For each flattened identifier, the first unknown trait type it reaches, if any.
    private var unknownReached: [(type: String, location: SourceLocation)?]
    private var errors: [SpecError] = []

    /// Resolves the base variables and every theme; each error is reported once.
    static func resolveAll(
        _ document: SpecDocument, registry: TraitRegistry
    ) -> (base: Resolution, themes: [String: Resolution], errors: [SpecError]) {
        let positions = Dictionary(
            document.identifiers.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var resolver = SpecResolver(
            document: document, registry: registry, scope: VariableScope(variables: document.variables),
            positions: positions)
        resolver.decodeAll()
        let (base, firstErrors) = resolver.resolution(reusing: nil)
        var errors = firstErrors
        var seen = Set(errors.map(\.description))
        var themes: [String: Resolution] = [:]
        for theme in document.themes {
            let (resolution, themeErrors) = resolve(
                theme: theme.name, overrides: theme.overrides, of: document, registry: registry,
                base: Base(resolver: resolver, resolution: base))
            themes[theme.name] = resolution
            // An error in a shared entry shows up once per theme: report it once.
            for error in themeErrors where seen.insert(error.description).inserted {
                errors.append(error)
            }
        }
        return (base, themes, errors)
    }

    private static func resolve(
        theme: String, overrides: SpecNode, of document: SpecDocument, registry: TraitRegistry, base: Base
    ) -> (Resolution, [SpecError]) {
        let variables: SpecNode
        do {
            variables = try ThemeOverlay.apply(overrides, to: document.variables, theme: theme)
        } catch {
            return (.empty, [error])
        }
        var resolver = SpecResolver(
            document: document, registry: registry, scope: VariableScope(variables: variables),
            positions: base.resolver.positions)
        resolver.items = base.resolver.items
        var changes = ThemeChanges(overrides: overrides, readsOfVariable: base.resolver.scope.readsOfVariable)
        var redecoded = [Bool](repeating: false, count: document.identifiers.count)
        for (position, identifier) in document.identifiers.enumerated() {
            let entryReads = base.resolver.reads[position]
            for (index, entry) in identifier.entries.enumerated() where changes.affect(entryReads[index]) {
                resolver.items[position][index] = resolver.decode(entry)
                redecoded[position] = true
            }
        }
        return resolver.resolution(reusing: (base.resolution, redecoded))
    }

    private init(document: SpecDocument, registry: TraitRegistry, scope: VariableScope, positions: [String: Int]) {
        self.document = document
        self.registry = registry
        self.scope = scope
        self.positions = positions
        self.items = Array(repeating: [], count: document.identifiers.count)
        self.flattened = Array(repeating: nil, count: document.identifiers.count)
        self.unknownReached = Array(repeating: nil, count: document.identifiers.count)
    }

    private mutating func decodeAll() {
        reads.reserveCapacity(document.identifiers.count)
        for (position, identifier) in document.identifiers.enumerated() {
            var decoded: [Item?] = []
            var entryReads: [[String]] = []
            decoded.reserveCapacity(identifier.entries.count)
            entryReads.reserveCapacity(identifier.entries.count)
            for entry in identifier.entries {
                decoded.append(decode(entry))
                entryReads.append(scope.takeReads())
            }
            items[position] = decoded
            reads.append(entryReads)
        }
    }

    /// Flattens every identifier's items into its list. With a base, identifiers none of whose
    /// entries (nor those of identifiers they inherit) were re-decoded keep the base's list.
    private mutating func resolution(
        reusing base: (resolution: Resolution, redecoded: [Bool])?
    ) -> (Resolution, [SpecError]) {
        var lists: [Resolution.List] = []
        lists.reserveCapacity(document.identifiers.count)
        var unchanged = [Bool?](repeating: nil, count: base == nil ? 0 : document.identifiers.count)
        var changed: [Int] = []
        for (position, identifier) in document.identifiers.enumerated() {
            if let base, isUnchanged(position, redecoded: base.redecoded, memo: &unchanged) {
                lists.append(base.resolution.lists[position])
                continue
            }
            changed.append(position)
            var stack: [Int] = []
            let traits = flatten(position, stack: &stack)
            let skipped = unknownReached[position].map {
                SkippedIdentifier(identifier: identifier.name, traitType: $0.type, location: $0.location)
            }
            lists.append(
                Resolution.List(
                    traits: traits.map(\.0), digest: ContentDigest(combining: traits.map(\.1)), skipped: skipped))
        }
        if let base {
            return (Resolution(lists: lists, changed: changed, of: base.resolution), errors)
        }
        return (Resolution(order: document.identifiers.map(\.name), positions: positions, lists: lists), errors)
    }

    /// Whether `name` flattens as in the base: none of its entries, nor those of anything it
    /// inherits, were re-decoded. (A cycle counts as changed: flattening reports it again.)
    private func isUnchanged(_ position: Int, redecoded: [Bool], memo: inout [Bool?]) -> Bool {
        if let known = memo[position] { return known }
        memo[position] = false
        var unchanged = !redecoded[position]
        for case .inherit(let names, _)? in items[position] where unchanged {
            unchanged = names.allSatisfy { name in
                positions[name].map { isUnchanged($0, redecoded: redecoded, memo: &memo) } ?? true
            }
        }
        memo[position] = unchanged
        return unchanged
    }

    private mutating func decode(_ entry: SpecNode) -> Item? {
        var unknownType: String?
        do throws(SpecError) {
            let resolved = try scope.substitute(entry)
            guard let members = resolved.members else {
                throw SpecError(
                    .typeMismatch, at: entry.location,
                    "expected a trait (a mapping with a 'type'), found \(resolved.foundDescription)")
            }
            guard let typeNode = members.first(where: { $0.key == "type" })?.value else {
                throw SpecError(.missingKey, at: entry.location, "trait has no 'type'")
            }
            guard let typeName = typeNode.string else {
                throw SpecError(
                    .typeMismatch, at: typeNode.location,
                    "expected a trait type name, found \(typeNode.foundDescription)")
            }
            if typeName == InheritDirective.typeName {
                return .inherit(try InheritDirective.decode(resolved).traits, location: entry.location)
            }
            guard let type = registry.type(named: typeName) else {
                let known = registry.typeNames + [InheritDirective.typeName]
                let hint = Suggestion.closest(to: typeName, in: known).map { "; did you mean '\($0)'?" } ?? ""
                unknownType = typeName
                throw SpecError(.unknownTrait, at: typeNode.location, "unknown trait type '\(typeName)'\(hint)")
            }
            let decoded = try type.decodeWithSettings(resolved)
            return .trait(
                ResolvedTrait(decoded, location: entry.location, type: type), content: ContentDigest(resolved))
        } catch {
            errors.append(error)
            return unknownType.map { .unknown(type: $0, location: error.location) }
        }
    }

    /// How deep `Inherit`s may nest: flattening recurses once per level.
    static let maximumInheritDepth = 64
    /// How many traits one identifier may flatten to: `Inherit: [a, a]` doubles a list per
    /// level, so a small file could otherwise ask for 2^40 traits.
    static let maximumTraitsPerIdentifier = 4_096

    private mutating func flatten(_ position: Int, stack: inout [Int]) -> [(ResolvedTrait, ContentDigest)] {
        if let done = flattened[position] { return done }
        stack.append(position)
        defer { stack.removeLast() }
        var result: [(ResolvedTrait, ContentDigest)] = []
        var unknown: (type: String, location: SourceLocation)?
        defer { unknownReached[position] = unknown }
        for case let item? in items[position] {
            switch item {
            case .trait(let trait, let content):
                result.append((trait, content))
            case .unknown(let type, let location):
                unknown = unknown ?? (type, location)
            case .inherit(let names, let location):
                for inherited in names {
                    guard let inheritedPosition = positions[inherited] else {
                        let hint =
                            Suggestion.closest(to: inherited, in: document.identifiers.map(\.name))
                            .map { "; did you mean '\($0)'?" } ?? ""
                        errors.append(
                            SpecError(
                                .unresolvedReference, at: location,
                                "Inherit names unknown identifier '\(inherited)'\(hint)"))
                        continue
                    }
                    if let start = stack.firstIndex(of: inheritedPosition) {
                        let cycle = (stack[start...].map { document.identifiers[$0].name } + [inherited])
                            .joined(separator: " → ")
                        errors.append(SpecError(.cycle, at: location, "Inherit cycle: \(cycle)"))
                    } else if stack.count >= Self.maximumInheritDepth {
                        let first = document.identifiers[stack[0]].name
                        errors.append(
                            SpecError(
                                .limitExceeded, at: location,
                                "Inherit nests more than \(Self.maximumInheritDepth) identifiers deep (\(first) → … → \(inherited)); the limit is \(Self.maximumInheritDepth)"
                            ))
                    } else {
                        result += flatten(inheritedPosition, stack: &stack)
                        unknown = unknown ?? unknownReached[inheritedPosition]
                    }
                }
            }
            if result.count > Self.maximumTraitsPerIdentifier {
                let identifier = document.identifiers[position]
                errors.append(
                    SpecError(
                        .limitExceeded, at: identifier.location,
                        "'\(identifier.name)' flattens to more than \(Self.maximumTraitsPerIdentifier) traits through Inherit; the limit is \(Self.maximumTraitsPerIdentifier)"
                    ))
                result.removeLast(result.count - Self.maximumTraitsPerIdentifier)
                break
            }
        }
        flattened[position] = result
        return result
    }
}
