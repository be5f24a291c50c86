/// Finds an earlier member with the same key while a reader builds a mapping, to report
/// duplicate keys with both places. Built lazily: most mappings are small enough that comparing
/// a handful of keys beats hashing them.
struct MemberIndex {
    private var positions: [String: Int] = [:]

    /// Where `key` already appears in `members`, if it does.
    mutating func firstLocation(of key: String, in members: [SpecNode.Member]) -> SourceLocation? {
        if members.count < 16 {
            return members.first { $0.key == key }?.keyLocation
        }
        if positions.isEmpty {
            // Room for a mapping four times this size, so growing it rarely rehashes.
            positions.reserveCapacity(members.count * 4)
        }
        if positions.count < members.count {
            for index in positions.count..<members.count {
                positions[members[index].key] = index
            }
        }
        return positions[key].map { members[$0].keyLocation }
    }
}
