/// What resolved entries hold, as 128 bits (one entry's, or a list's combined from its entries'):
/// the provider compares list digests to re-apply only identifiers whose traits changed.
///
/// Two SipHash values of the entries' content under different salts, keyed by the process's
/// random hashing seed. Equal content always gives equal digests, wherever it was written
/// (locations are left out). Different content gives equal digests with a probability of about
/// 2⁻¹²⁸, and without the seed nobody can choose entries that collide. A deep comparison would be
/// exact too, but it walks both trees for every unchanged identifier of every reload, about 15
/// times the cost of comparing two digests.
struct ContentDigest: Hashable, Sendable {
    private let first: Int
    private let second: Int

    /// The digest of one resolved entry.
    init(_ node: SpecNode) {
        var first = Hasher()
        var second = Hasher()
        first.combine(1)
        second.combine(2)
        node.hashContent(into: &first)
        node.hashContent(into: &second)
        self.first = first.finalize()
        self.second = second.finalize()
    }

    /// The digest of a list of entries, from theirs: each entry is hashed once, however many
    /// themes and `Inherit`s reuse it.
    init(combining parts: [ContentDigest]) {
        var first = Hasher()
        var second = Hasher()
        first.combine(3)
        second.combine(4)
        first.combine(parts.count)
        second.combine(parts.count)
        for part in parts {
            first.combine(part.first)
            first.combine(part.second)
            second.combine(part.second)
            second.combine(part.first)
        }
        self.first = first.finalize()
        self.second = second.finalize()
    }
}

extension SpecNode {
    /// Feeds the node's content to `hasher`, leaving out locations. Nodes with the same content
    /// (``hasSameContent(as:)``) hash alike: a whole number as an int and as a double, 0 and -0.
    func hashContent(into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let bool):
            hasher.combine(1 as UInt8)
            hasher.combine(bool)
        case .int(let int):
            hasher.combine(2 as UInt8)
            hasher.combine(Double(int))
        case .double(let double):
            hasher.combine(2 as UInt8)
            hasher.combine(double)
        case .string(let string):
            hasher.combine(3 as UInt8)
            hasher.combine(string)
        case .sequence(let items):
            hasher.combine(4 as UInt8)
            hasher.combine(items.count)
            for item in items { item.hashContent(into: &hasher) }
        case .mapping(let members):
            hasher.combine(5 as UInt8)
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                member.value.hashContent(into: &hasher)
            }
        }
    }
}
