import Livery

/// The flags OpenFeature's remote evaluation protocol (OFREP) reads from one spec version, with
/// no theme and under each theme, made once when the version is published: an evaluation only
/// looks a flag up and writes it out.
///
/// A flag is a variable by its dotted name, the value a program reads as a setting
/// (``Livery/Spec/resolvedVariables(theme:)``: references and colour functions substituted):
/// every variable, a mapping as an object (`colors`, a shadow) and each of its members too
/// (`colors.accent`); and a `Set` value as `IDENTIFIER:NAME` (`card.title:retries`). Colour text
/// (`#RGB`, `rgb(…)`…), wherever it is in a value, is written `#RRGGBB` or `#RRGGBBAA`, as
/// `GET /v1/tokens` writes a colour's hex; a null is no flag, as it is no setting.
struct OFREPFlags: Sendable {
    /// One flag's value under one variant, as JSON text.
    struct Flag: Sendable, Equatable {
        /// The value, as JSON.
        var value: String
        /// Where the value is defined: `file:line:column`.
        var source: String
    }

    /// The flags of one variant (no theme, or one theme), or why it has none.
    struct Variant: Sendable {
        /// The flags by key.
        var flags: [String: Flag] = [:]
        /// The keys in spec order: variables, then `Set` values by identifier.
        var keys: [String] = []
        /// Why the variables do not resolve under this variant (a reference no trait reads that
        /// names nothing), located; its `Set` values are still flags.
        var failure: String?
    }

    /// The flags with no theme.
    let base: Variant
    /// The flags under each theme the spec defines.
    let themes: [String: Variant]

    /// The flags of `spec`; with no spec (a bundle that is not one, only in tests), none.
    init(spec: Spec?) {
        guard let spec else {
            base = Variant(failure: "this bundle is not a spec this daemon reads")
            themes = [:]
            return
        }
        base = Variant(spec: spec, theme: nil)
        var themes: [String: Variant] = [:]
        for theme in spec.themes where themes[theme] == nil { themes[theme] = Variant(spec: spec, theme: theme) }
        self.themes = themes
    }
}

extension OFREPFlags.Variant {
    /// The flags of `spec` under `theme`.
    init(spec: Spec, theme: String?) {
        do {
            collect(try spec.resolvedVariables(theme: theme), path: [])
        } catch {
            failure = error.description
        }
        for identifier in spec.identifiers {
            for case let set as SetTrait in spec.traits(for: identifier, theme: theme) {
                // A later Set of the same name wins, as it does on the target.
                for member in set.values { add(identifier + ":" + member.key, member.value) }
            }
        }
    }

    private mutating func collect(_ node: SpecNode, path: [String]) {
        if !path.isEmpty { add(path.joined(separator: "."), node) }
        for member in node.members ?? [] { collect(member.value, path: path + [member.key]) }
    }

    private mutating func add(_ key: String, _ node: SpecNode) {
        if case .null = node.value { return }
        if flags.updateValue(OFREPFlags.Flag(node), forKey: key) == nil { keys.append(key) }
    }
}

extension OFREPFlags.Flag {
    /// `node` as a flag.
    init(_ node: SpecNode) {
        source = node.location.description
        value = Self.normalized(node).canonicalJSON
    }

    /// `node` with every colour text in it as `#RRGGBB` or `#RRGGBBAA`.
    private static func normalized(_ node: SpecNode) -> SpecNode {
        switch node.value {
        case .string(let text):
            guard let color = color(text) else { return node }
            return SpecNode.text(color.description, at: node.location)
        case .sequence(let items):
            return SpecNode(.sequence(items.map(normalized)), at: node.location)
        case .mapping(let members):
            let normalizedMembers = members.map {
                SpecNode.Member(key: $0.key, keyLocation: $0.keyLocation, value: normalized($0.value))
            }
            return SpecNode(.mapping(normalizedMembers), at: node.location)
        default:
            return node
        }
    }

    /// The colour `text` writes, in any syntax a colour value takes; `nil` for other text.
    private static func color(_ text: String) -> Color? {
        do {
            return try Color(parsing: text)
        } catch {
            return nil  // not a colour: the flag is the text
        }
    }
}
