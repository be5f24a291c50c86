/// Sets any properties a ``Tweakable`` target lists: `{ type: Set, values: { attempts: 5 } }`.
///
/// Its spec name is `Set`; the Swift name differs only because `Set` is the standard library's.
/// Values keep their place in the spec, so an error in one (a wrong type, a property the target
/// does not list) points at it.
public struct SetTrait: Trait {
    /// `Set`.
    public static let typeName = "Set"

    /// The properties to set, in spec order, with their unconverted values.
    public var values: [SpecNode.Member]

    /// Creates the trait from spec nodes.
    public init(values: [SpecNode.Member]) { self.values = values }

    enum CodingKeys: String, CodingKey { case values }

    /// Decodes the trait. Only a spec decoder can supply it: the values' types are known only
    /// once the target is.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decode(RawNode.self, forKey: .values)
        guard let members = raw.node.members else {
            throw DecodingError.typeMismatch(
                [String: Int].self,
                .init(
                    codingPath: container.codingPath + [CodingKeys.values],
                    debugDescription:
                        "expected a mapping of property names to values, found \(raw.node.foundDescription)"))
        }
        values = members
    }

    /// Encodes the values as they were written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let mapping = SpecNode(.mapping(values), at: values.first?.keyLocation ?? .start(of: "<encoded>"))
        try container.encode(mapping, forKey: .values)
    }

    /// Sets each value in order; on any error, what this trait already set is put back first.
    public func apply(to target: any Tweakable) throws -> Reversal<any Tweakable> {
        try applyValues(to: target)
    }

    private func applyValues<Root: Tweakable>(to root: Root) throws(SpecError) -> Reversal<any Tweakable> {
        let table = Root.tweakables
        var reversal = Reversal<Root>.none
        for member in values {
            guard let tweak = table[member.key] else {
                reversal.revert(root)
                let known = table.keys.sorted()
                let hint =
                    Suggestion.closest(to: member.key, in: known).map { "did you mean '\($0)'?" }
                    ?? "it has " + (known.isEmpty ? "none" : known.map { "'\($0)'" }.joined(separator: ", "))
                throw SpecError(
                    .unknownKey, at: member.keyLocation,
                    "\(Root.self) has no tweakable property '\(member.key)'; \(hint)")
            }
            do {
                reversal = try tweak.assign(root, member.value, "'\(member.key)' of \(Root.self)").followed(
                    by: reversal)
            } catch {
                reversal.revert(root)
                throw error
            }
        }
        let done = reversal
        return Reversal { target in
            if let root = target as? Root { done.revert(root) }
        }
    }
}

/// Captures the node a value was decoded from, for traits that decode late.
struct RawNode: Decodable {
    let node: SpecNode

    init(node: SpecNode) { self.node = node }

    init(from decoder: any Decoder) throws {
        guard let nodeDecoder = decoder as? NodeDecoder else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "this value can only be decoded from a spec"))
        }
        node = nodeDecoder.node
    }
}

extension SetTrait: CSSTrait {
    /// One custom property per value, `--name: value`: numbers as numbers, strings as CSS
    /// strings, booleans as `true` or `false`, lists space-separated. A mapping has no CSS
    /// form and is left out.
    public var cssDeclarations: [CSSDeclaration] {
        values.compactMap { member in CSSValue(specValue: member.value).map { .custom(member.key, $0) } }
    }
}

extension SetTrait: NamedPropertyTrait {
    /// Each value by its property's name: booleans as flags, integers as `.integer`, other
    /// numbers as `.number`, strings as `.text`; nil if any value is null, a list or a mapping.
    var namedSettings: [(name: String, setting: PropertyValue)]? {
        var named: [(name: String, setting: PropertyValue)] = []
        named.reserveCapacity(values.count)
        for member in values {
            let setting: PropertyValue
            switch member.value.value {
            case .bool(let flag): setting = .flag(flag)
            case .int(let integer): setting = .integer(integer)
            case .double(let number): setting = .number(number)
            case .string(let text): setting = .text(text)
            case .null, .sequence, .mapping: return nil
            }
            named.append((member.key, setting))
        }
        return named
    }

    /// The binding of the tweakable property `name`, if `type` is ``Tweakable`` and lists it
    /// with a type a ``PropertyValue`` holds.
    static func binding(named name: String, exactly type: AnyClass) -> PropertyBinding? {
        (type as? any Tweakable.Type)?.binding(named: name, exactly: type)
    }
}
