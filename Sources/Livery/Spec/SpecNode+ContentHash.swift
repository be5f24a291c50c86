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
        var hashers = HasherPair()
        hashers.first.combine(1)
        hashers.second.combine(2)
        node.hashContent(into: &hashers)
        self.first = hashers.first.finalize()
        self.second = hashers.second.finalize()
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

/// A digest's two hashers, fed the same content in one walk of the tree, so that each node and
/// string is read (and its storage retained) once rather than once per half.
struct HasherPair {
    var first = Hasher()
    var second = Hasher()

    mutating func combine(_ value: some Hashable) {
        first.combine(value)
        second.combine(value)
    }
}

extension SpecNode {
    /// Feeds the node's content to both `hashers`, leaving out locations. Nodes with the same
    /// content (``hasSameContent(as:)``) hash alike: a whole number as an int and as a double, 0
    /// and -0.
    func hashContent(into hashers: inout HasherPair) {
        switch value {
        case .null: hashers.combine(0 as UInt8)
        case .bool(let bool):
            hashers.combine(1 as UInt8)
            hashers.combine(bool)
        case .int(let int):
            hashers.combine(2 as UInt8)
            hashers.combine(Double(int))
        case .double(let double):
            hashers.combine(2 as UInt8)
            hashers.combine(double)
        case .string(let string):
            hashers.combine(3 as UInt8)
            hashers.combine(string)
        case .sequence(let items):
            hashers.combine(4 as UInt8)
            hashers.combine(items.count)
            for item in items { item.hashContent(into: &hashers) }
        case .mapping(let members):
            hashers.combine(5 as UInt8)
            hashers.combine(members.count)
            for member in members {
                hashers.combine(member.key)
                member.value.hashContent(into: &hashers)
            }
        }
    }
}
