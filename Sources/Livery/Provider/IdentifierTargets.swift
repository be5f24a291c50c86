/// The targets registered under one identifier.
///
/// Most identifiers name a single object, so one target is kept without storage of its own;
/// a dictionary appears only when a second target shares the identifier.
enum IdentifierTargets {
    case one(RegisteredTarget)
    case many([ObjectIdentifier: RegisteredTarget])

    /// Adds `entry`, or replaces the entry of the same object.
    mutating func insert(_ entry: RegisteredTarget) {
        switch self {
        case .one(let existing) where existing.id == entry.id:
            self = .one(entry)
        case .one(let existing):
            self = .many([existing.id: existing, entry.id: entry])
        case .many(var entries):
            self = .one(entry)  // drops this enum's reference so `entries` is mutated in place
            entries[entry.id] = entry
            self = .many(entries)
        }
    }

    /// Removes `entry` if it is the one held for its object; returns whether none are left.
    mutating func remove(_ entry: RegisteredTarget) -> Bool {
        switch self {
        case .one(let existing):
            return existing === entry
        case .many(var entries):
            guard entries[entry.id] === entry else { return false }
            self = .one(entry)
            entries[entry.id] = nil
            self = .many(entries)
            return entries.isEmpty
        }
    }

    /// Calls `body` with each entry.
    func forEach(_ body: (RegisteredTarget) -> Void) {
        switch self {
        case .one(let entry): body(entry)
        case .many(let entries): for entry in entries.values { body(entry) }
        }
    }
}
