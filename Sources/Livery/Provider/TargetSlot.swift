import CPrefetch

/// A registered target as the provider keeps it: one element of the provider's contiguous slot
/// array, found by position rather than through a reference of its own.
///
/// A load walks thousands of these. Kept as values in one array, they cost no reference count
/// and no exclusivity check each, and neighbours share cache lines, where an object per target
/// cost a retain and a release for every step that passed it along.
struct TargetSlot {
    /// The object, held weakly; nil once it is gone, and in a free slot. The first field:
    /// ``prefetch()`` reads it at the slot's own address (a key path gives no offset for a weak
    /// property).
    weak var object: AnyObject?
    /// The object's identity, kept to find the slot again after the object is gone.
    var id: ObjectIdentifier
    var identifier: String
    /// What the object's class can take. Not retained: the provider keeps every
    /// ``ClassCapabilities`` it makes for as long as it lives, and slots live only in it.
    var capabilities: Unmanaged<ClassCapabilities>
    /// How to undo the applied traits, newest last: one record per property a property trait
    /// set, one per other trait. Its storage is reused from load to load.
    var undos: [Undo] = []
    /// How many traits are applied.
    var appliedTraits = 0

    init(_ object: AnyObject, identifier: String, capabilities: ClassCapabilities) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.identifier = identifier
        self.capabilities = .passUnretained(capabilities)
    }

    /// Whether traits are applied (false after a failed registration, so a rollback does not
    /// re-apply what never was).
    var isStyled: Bool { appliedTraits > 0 }

    /// Undoes the applied traits newest first and forgets them; returns how many traits it undid.
    ///
    /// Popped one by one: run in place and then removed at once, the records cost more (the
    /// array's removal destroys them through their type's value witnesses, a generic call each).
    @discardableResult
    mutating func revertAll(on object: AnyObject) -> Int {
        let count = appliedTraits
        while let undo = undos.popLast() {
            undo.run(on: object)
        }
        appliedTraits = 0
        return count
    }
}

extension TargetSlot {
    /// Sets the properties the applied traits set to `settings` in place, when `plan` binds the
    /// same properties in the same order as the undo records (every step a property binding,
    /// a setting where a record is): the usual edit, new values for the same traits. Returns
    /// whether it did; otherwise nothing is touched, and the load reverts and applies.
    ///
    /// The end state is the one reverting and applying gives: each property holds its new value,
    /// and each record still holds the value from before any trait, which is what the apply
    /// would have recorded again. The property is written once instead of twice (a revert and an
    /// exchange, each an access the runtime checks for exclusivity, and a record popped and
    /// pushed): a setter sees the old value change to the new one, not back to its original
    /// first.
    ///
    /// Always inlined into the apply, which calls it for every target: as a call it cost about
    /// 25 instructions per target, paid also by a plan whose first step already says no.
    @inline(__always)
    mutating func reassign(
        _ plan: UnsafeBufferPointer<ClassCapabilities.Step>, _ settings: UnsafeBufferPointer<PropertyValue?>,
        on object: AnyObject
    ) -> Bool {
        let matches = undos.withUnsafeBufferPointer { records in
            var record = 0
            for index in plan.indices {
                guard case .bound(let binding) = plan[index] else { return false }
                // Not `!= nil`: that is `Optional`'s `Equatable` comparison, which copies the
                // setting into a pair of optionals and destroys the pair through generic metadata.
                guard case .some = settings[index] else { continue }
                guard record < records.count, case .restore(let recorded, _) = records[record],
                    recorded.toOpaque() == binding.toOpaque()
                else { return false }
                record += 1
            }
            return record == records.count
        }
        guard matches else { return false }
        for index in plan.indices {
            guard case .bound(let binding) = plan[index], let value = settings[index] else { continue }
            // Assigned, not exchanged: the value an exchange would give back is the previous
            // spec's, which no record needs, and destroying it costs more than this copy.
            binding._withUnsafeGuaranteedRef { $0.assign(object, value) }
        }
        return true
    }
}

extension UnsafeMutablePointer<TargetSlot> {
    /// Starts fetching what applying to this slot touches first: its object, the side table its
    /// weak reference goes through, and its undo records.
    ///
    /// A load visits its targets in an order known in advance, but their objects and undo buffers
    /// lie wherever they were allocated; each is a cache miss. Asked for a few targets ahead,
    /// the misses overlap with the work on the targets before. Only hints: a prefetch never
    /// faults and changes nothing, so a slot whose object is gone costs nothing either.
    func prefetch() {
        // The object's address is its identity.
        livery_prefetch(unsafeBitCast(pointee.id, to: UnsafeRawPointer.self))
        // A weak reference holds the address of the object's side table, where the counts that
        // loading it strongly changes are kept. (The runtime's representation: were it to
        // change, this would prefetch the wrong line, nothing more.)
        livery_prefetch(UnsafeRawPointer(self).load(as: UnsafeRawPointer.self))
        // An array is one reference to its storage, which holds the elements. (Read through
        // the field's address: a copy of the array would retain it.)
        livery_prefetch(withUnsafeBytes(of: &pointee.undos) { $0.load(as: UnsafeRawPointer.self) })
    }
}
