/// The slots of the targets registered under one identifier.
///
/// Most identifiers name a single object, so one slot is kept without storage of its own;
/// a set appears only when a second target shares the identifier.
enum IdentifierTargets {
    case one(Int)
    case many(Set<Int>)

    /// Adds `slot`.
    mutating func insert(_ slot: Int) {
        switch self {
        case .one(let existing) where existing == slot:
            return
        case .one(let existing):
            self = .many([existing, slot])
        case .many(var slots):
            self = .one(slot)  // drops this enum's reference so `slots` is mutated in place
            slots.insert(slot)
            self = .many(slots)
        }
    }

    /// Removes `slot`; returns whether none are left.
    mutating func remove(_ slot: Int) -> Bool {
        switch self {
        case .one(let existing):
            return existing == slot
        case .many(var slots):
            self = .one(slot)
            slots.remove(slot)
            self = .many(slots)
            return slots.isEmpty
        }
    }

    /// Calls `body` with each slot.
    func forEach(_ body: (Int) -> Void) {
        switch self {
        case .one(let slot): body(slot)
        case .many(let slots): for slot in slots { body(slot) }
        }
    }
}
