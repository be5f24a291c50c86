/// Finds an earlier member with the same key while a reader builds a mapping, to report
/// duplicate keys with both places. Built lazily: most mappings are small enough that comparing
/// a handful of keys beats hashing them.
///
/// A reader asks about each key just before it adds that key's member at the end (or stops at
/// the duplicate), so the index records the key at that position as it looks it up: one hash
/// a key.
struct MemberIndex {
    private var positions: [String: Int] = [:]

    /// Where `key` already appears in `members`, if it does; `key`'s member comes next. A
    /// reader passes the members read so far of one mapping, indexed as they are in its list.
    mutating func firstLocation<Members: RandomAccessCollection<SpecNode.Member>>(
        of key: String, in members: Members
    ) -> SourceLocation? where Members.Index == Int {
        if members.count < 16 {
            return members.first { $0.key == key }?.keyLocation
        }
        if positions.isEmpty {
            // Room for a mapping four times this size, so growing it rarely rehashes.
            positions.reserveCapacity(members.count * 4)
            for index in members.indices { positions[members[index].key] = index }
        }
        return positions.updateValue(members.endIndex, forKey: key).map { members[$0].keyLocation }
    }
}
