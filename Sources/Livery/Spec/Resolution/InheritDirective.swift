/// `{ type: Inherit, traits: [text.base] }`: brings in the traits of other identifiers, in place.
///
/// A directive of the spec language, not a trait: the resolver flattens it when a spec is read,
/// so no provider ever sees it, and it is spelt as the original Traits library spelt it. Cycles
/// and unknown identifiers are errors in the spec.
struct InheritDirective: Decodable {
    /// `Inherit`: a name no trait type may take.
    static let typeName = "Inherit"
    /// The identifiers whose traits are brought in, in order.
    let traits: [String]

    /// Decodes an entry (`type` included): one of `type` and a list of names, nothing else, is
    /// read as it is; anything else goes through `Decodable`, which decodes it or reports what is
    /// wrong with its place. `plainly: false` takes that path alone, for tests that hold the two equal.
    static func decode(_ entry: SpecNode, plainly: Bool = true) throws(SpecError) -> InheritDirective {
        if plainly, let directive = InheritDirective(plain: entry) { return directive }
        return try NodeDecoder.decode(Self.self, from: entry, owner: typeName, preread: ["type"])
    }

    /// The directive of an entry of `type` and a list of names, nothing else; nil for anything else.
    init?(plain entry: SpecNode) {
        guard case .mapping(let members) = entry.value, members.count == 2,
            let list = members.first(where: { $0.key == "traits" }), case .sequence(let items) = list.value.value
        else { return nil }
        var traits: [String] = []
        traits.reserveCapacity(items.count)
        for item in items {
            guard case .string(let name) = item.value else { return nil }
            traits.append(name)
        }
        self.traits = traits
    }
}
