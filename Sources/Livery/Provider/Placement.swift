/// The slots of the targets registered under each identifier of one resolution's order, by
/// position, in one flat array: what a load reads instead of looking each changed identifier up
/// by name (hashing a string and visiting a dictionary bucket per identifier).
///
/// Made for one order and the registrations of that moment; the provider makes it again when
/// either changes.
struct Placement {
    /// The slots of position `p` are `slots[starts[p]..<starts[p + 1]]`.
    private var starts: [Int]
    private(set) var slots: [Int]

    static let empty = Placement(starts: [0], slots: [])

    private init(starts: [Int], slots: [Int]) {
        self.starts = starts
        self.slots = slots
    }

    init(order: [String], targets: [String: IdentifierTargets]) {
        starts = []
        starts.reserveCapacity(order.count + 1)
        slots = []
        slots.reserveCapacity(order.count)
        for identifier in order {
            starts.append(slots.count)
            targets[identifier]?.forEach { slots.append($0) }
        }
        starts.append(slots.count)
    }

    /// Where in ``slots`` the targets of the identifier at `position` are.
    func range(at position: Int) -> Range<Int> {
        starts[position]..<starts[position + 1]
    }
}
