/// The all-or-nothing move from one resolution to another.
///
/// A load works on plain values: slot positions, plan offsets and flags, in a few flat arrays.
/// Nothing a load makes per target holds a counted reference, because a retain and a release
/// for every target a step passed along were most of a large load's time.
import Logging

extension TraitsProvider {
    /// A live target a load restyles.
    struct Touched {
        /// Its position in ``TraitsProvider/slots``.
        let slot: Int
        /// Where its plan starts in ``Work/steps``; the plan is as long as the group's list.
        let plan: Int
        /// Whether it had traits applied before the load, so a rollback knows to re-apply them.
        /// Recorded by the apply, which reads the target's undo records anyway.
        var wasStyled = false
    }

    /// The targets `touched[range]` of one changed identifier, and where its new list is.
    struct Group {
        /// The list's position in the next resolution; nil where it no longer names the identifier.
        let position: Int?
        let range: Range<Int>
    }

    /// What a load does, decided before anything is touched.
    struct Work {
        /// In document order, removed ones last.
        var changedIdentifiers: [String] = []
        var groups: [Group] = []
        var touched: [Touched] = []
        /// How each trait applies, for every plan one after the other. A plan depends only on the
        /// class and the trait types, which consecutive targets mostly share, so they share it.
        var steps: [ClassCapabilities.Step] = []
        /// Slots whose objects are gone.
        var gone: [Int] = []
    }

    func transition(to next: Resolution, theme: String?) throws -> LoadReport {
        let previous = currentResolution
        let sameOrder = previous.order == next.order
        if !(placementIsCurrent && sameOrder) {
            placement = Placement(order: next.order, targets: slotsByIdentifier)
        }
        // The placement is now next's; it is still the current resolution's (if this load fails)
        // only when the order is the same.
        placementIsCurrent = sameOrder
        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback.
        var work = try work(from: previous, to: next, sameOrder: sameOrder)

        isApplying = true
        let outcome = slots.withUnsafeMutableBufferPointer { slots in
            next.lists.withUnsafeBufferPointer { lists in
                next.settings.withUnsafeBufferPointer { settings in
                    work.touched.withUnsafeMutableBufferPointer { touched in
                        work.steps.withUnsafeBufferPointer { steps in
                            Self.apply(
                                work.groups, of: next, lists: lists, settings: settings, touched: touched, steps: steps,
                                slots: slots.baseAddress!)
                        }
                    }
                }
            }
        }
        isApplying = false
        let gone = work.gone + outcome.gone
        if let failure = outcome.failure {
            rollBack(work.touched[...failure.index], to: previous)
            forgetGone(gone)
            throw failure.error
        }
        currentResolution = next
        placementIsCurrent = true  // made for next's order; freeing a gone slot makes it stale
        forgetGone(gone)
        return LoadReport(
            changedIdentifiers: work.changedIdentifiers, targetsTouched: outcome.touched,
            traitsApplied: outcome.applied, traitsReverted: outcome.reverted, theme: theme)
    }

    /// What the apply of a load did.
    private struct Outcome {
        var touched = 0
        var applied = 0
        var reverted = 0
        /// Slots whose objects were found gone.
        var gone: [Int] = []
        /// The position in ``Work/touched`` of the target that failed, and why.
        var failure: (index: Int, error: SpecError)?
    }

    /// Applies each group's list to its targets, each after reverting what it has; stops at the
    /// first failure, with that target's own part already undone.
    ///
    /// Everything through buffers: an element copied out of an array, or an array slice made,
    /// would retain (and release) what it holds, for every target.
    private static func apply(
        _ groups: [Group], of next: Resolution, lists: UnsafeBufferPointer<Resolution.List>,
        settings: UnsafeBufferPointer<PropertyValue?>, touched: UnsafeMutableBufferPointer<Touched>,
        steps: UnsafeBufferPointer<ClassCapabilities.Step>, slots: UnsafeMutablePointer<TargetSlot>
    ) -> Outcome {
        var outcome = Outcome()
        for group in groups where outcome.failure == nil {
            if let position = group.position {
                apply(
                    lists.baseAddress! + position,
                    UnsafeBufferPointer(rebasing: settings[next.settingsRange(at: position)]),
                    group.range, touched: touched, steps: steps, slots: slots, &outcome)
            } else {
                // An identifier the next resolution no longer names gets no traits.
                withUnsafePointer(to: Resolution.List.empty) { empty in
                    apply(
                        empty, UnsafeBufferPointer(start: nil, count: 0), group.range, touched: touched, steps: steps,
                        slots: slots, &outcome)
                }
            }
        }
        return outcome
    }

    /// Applies `list` to the targets `touched[range]` of its group. The list is passed by
    /// address: passed as a value from a buffer, it would be copied (three retains) per group.
    private static func apply(
        _ list: UnsafePointer<Resolution.List>, _ settings: UnsafeBufferPointer<PropertyValue?>, _ range: Range<Int>,
        touched: UnsafeMutableBufferPointer<Touched>, steps: UnsafeBufferPointer<ClassCapabilities.Step>,
        slots: UnsafeMutablePointer<TargetSlot>, _ outcome: inout Outcome
    ) {
        let traitCount = list.pointee.traits.count
        for index in range {
            if index + prefetchDistance < touched.count {
                (slots + touched[index + prefetchDistance].slot).prefetch()
            }
            let target = touched[index]
            let slot = slots + target.slot
            guard let object = slot.pointee.object else {
                outcome.gone.append(target.slot)
                continue
            }
            touched[index].wasStyled = slot.pointee.isStyled
            outcome.touched += 1
            do throws(SpecError) {
                let plan = UnsafeBufferPointer(rebasing: steps[target.plan..<target.plan + settings.count])
                outcome.reverted += try apply(list, settings, plan, to: slot, object: object, revertingFirst: true)
                outcome.applied += traitCount
            } catch {
                outcome.failure = (index, error)
                return
            }
        }
    }

    /// How many targets ahead a load asks for the memory it will touch: far enough that the
    /// fetch is done when the target's turn comes (a target takes a few hundred nanoseconds).
    private static let prefetchDistance = 8

    /// The changed identifiers and, for each, its live targets with the plan each follows: every
    /// capability checked. Throws for the first trait a target's class cannot take.
    private func work(from previous: Resolution, to next: Resolution, sameOrder: Bool) throws(SpecError) -> Work {
        var positions: [Int] = []
        var removed: [String] = []
        if sameOrder {
            // The usual edit keeps the identifiers: compare side by side, without look-ups (and
            // through buffers, without copying each list).
            next.lists.withUnsafeBufferPointer { lists in
                previous.lists.withUnsafeBufferPointer { previousLists in
                    for position in lists.indices where !lists[position].hasSameContent(as: previousLists[position]) {
                        positions.append(position)
                    }
                }
            }
        } else {
            for position in next.lists.indices
            where previous.list(for: next.order[position])?.hasSameContent(as: next.lists[position]) != true {
                positions.append(position)
            }
            removed = previous.order.filter { next.list(for: $0) == nil }
        }

        var work = Work()
        work.changedIdentifiers.reserveCapacity(positions.count + removed.count)
        work.groups.reserveCapacity(positions.count + removed.count)
        // Sized once: grown by doubling, a large load would copy its arrays several times.
        work.touched.reserveCapacity(positions.reduce(0) { $0 + placement.range(at: $1).count })
        var planner = Planner()
        try slots.withUnsafeBufferPointer { slots throws(SpecError) in
            try next.lists.withUnsafeBufferPointer { lists throws(SpecError) in
                try placement.slots.withUnsafeBufferPointer { placed throws(SpecError) in
                    for position in positions {
                        work.changedIdentifiers.append(next.order[position])
                        try Self.plan(
                            lists.baseAddress! + position, position: position, placed[placement.range(at: position)],
                            slots, &work,
                            &planner)
                    }
                }
            }
            for identifier in removed {
                work.changedIdentifiers.append(identifier)
                var removedSlots: [Int] = []
                slotsByIdentifier[identifier]?.forEach { removedSlots.append($0) }
                try removedSlots.withUnsafeBufferPointer { removedSlots throws(SpecError) in
                    try withUnsafePointer(to: Resolution.List.empty) { empty throws(SpecError) in
                        try Self.plan(empty, position: nil, removedSlots[...], slots, &work, &planner)
                    }
                }
            }
        }
        return work
    }

    /// The last plan made in a load, which the next target reuses if its class and trait types
    /// are the same. Its lists all come from the next resolution (or are empty), so their
    /// type-sequence numbers compare.
    private struct Planner {
        var capabilities: Unmanaged<ClassCapabilities>?
        var typeSequence = -1
        var start = 0
    }

    /// Adds one group: `list`'s targets (`targets`, positions in `slots`), each with its plan.
    private static func plan(
        _ list: UnsafePointer<Resolution.List>, position: Int?, _ targets: Slice<UnsafeBufferPointer<Int>>,
        _ slots: UnsafeBufferPointer<TargetSlot>, _ work: inout Work, _ planner: inout Planner
    ) throws(SpecError) {
        let start = work.touched.count
        for index in targets {
            let capabilities = slots[index].capabilities
            if planner.capabilities?.toOpaque() != capabilities.toOpaque()
                || planner.typeSequence != list.pointee.typeSequence
            {
                // A new plan needs the object (a trait type's capability is a cast of it).
                guard let object = slots[index].object else {
                    work.gone.append(index)
                    continue
                }
                planner.start = work.steps.count
                work.steps += try plan(
                    list.pointee.traits, identifier: slots[index].identifier, object: object,
                    capabilities.takeUnretainedValue())
                planner.capabilities = capabilities
                planner.typeSequence = list.pointee.typeSequence
            }
            work.touched.append(Touched(slot: index, plan: planner.start))
        }
        work.groups.append(Group(position: position, range: start..<work.touched.count))
    }

    /// Frees the slots of objects found gone during a load.
    private func forgetGone(_ gone: [Int]) {
        for index in gone where slots[index].object == nil && isRegistered(index) {
            drop(index)
        }
    }

    /// Puts back, newest first, the targets a failed load restyled (the last one already
    /// reverted its own part).
    private func rollBack(_ touched: ArraySlice<Touched>, to previous: Resolution) {
        for target in touched.reversed() {
            guard let object = slots[target.slot].object else { continue }
            withSlot(target.slot) { slot in slot.pointee.revertAll(on: object) }
            guard target.wasStyled else { continue }
            do throws(SpecError) {
                try applyTraits(of: previous, toSlot: target.slot, object: object)
            } catch {
                // These traits applied to this target before; one that fails now is not deterministic.
                logger.critical(
                    "could not restore a target after a failed load",
                    metadata: [
                        "livery.identifier": "\(slots[target.slot].identifier)",
                        "livery.type": "\(Self.typeName(of: object))",
                        "livery.error": "\(error)",
                    ])
            }
        }
    }

    /// How each of `traits` applies to `object`, in order: the capability check before anything
    /// is touched, and what the apply then follows. Throws for the first trait the object's
    /// class cannot take.
    static func plan(
        _ traits: [ResolvedTrait], identifier: String, object: AnyObject, _ capabilities: ClassCapabilities
    ) throws(SpecError) -> [ClassCapabilities.Step] {
        var plan: [ClassCapabilities.Step] = []
        plan.reserveCapacity(traits.reduce(0) { $0 + $1.settings.count })
        for index in traits.indices {
            let verdict = capabilities.verdict(for: traits[index], object: object)
            guard verdict.capable else {
                throw Self.missingCapability(traits[index], identifier: identifier, object: object)
            }
            let steps = traits[index].settings.count
            if steps == verdict.bindings.count {
                for binding in verdict.bindings { plan.append(.bound(.passUnretained(binding))) }
            } else {
                plan.append(.general(trait: Int32(index)))
                plan += repeatElement(.covered, count: steps - 1)
            }
        }
        return plan
    }

    /// Applies `resolution`'s traits for slot `index`'s identifier to `object`, the slot's object,
    /// which has none applied: what a registration does, and a rollback to put a target back. On
    /// failure the target is left as it was.
    func applyTraits(of resolution: Resolution, toSlot index: Int, object: AnyObject) throws(SpecError) {
        let identifier = slots[index].identifier
        let capabilities = slots[index].capabilities.takeUnretainedValue()
        try resolution.withList(for: identifier) { list, settings throws(SpecError) in
            let plan = try Self.plan(list.traits, identifier: identifier, object: object, capabilities)
            try withSlot(index) { slot throws(SpecError) in
                try plan.withUnsafeBufferPointer { plan throws(SpecError) in
                    try withUnsafePointer(to: list) { list throws(SpecError) in
                        _ = try Self.apply(list, settings, plan, to: slot, object: object, revertingFirst: false)
                    }
                }
            }
        }
    }

    /// Applies `list`'s traits (`settings` are their settings) as `plan` says, recording how to
    /// undo each in the slot; on failure reverts this target's part. With `revertingFirst`, the
    /// target's current traits are reverted first (newest first), and their number returned.
    ///
    /// The list and the settings are read where they lie: passed or copied as values, the traits
    /// would be retained and released, and each setting copied and destroyed, for every target.
    private static func apply(
        _ list: UnsafePointer<Resolution.List>, _ settings: UnsafeBufferPointer<PropertyValue?>,
        _ plan: UnsafeBufferPointer<ClassCapabilities.Step>, to slot: UnsafeMutablePointer<TargetSlot>,
        object: AnyObject, revertingFirst: Bool
    ) throws(SpecError) -> Int {
        if revertingFirst, slot.pointee.reassign(plan, settings, on: object) {
            // The same properties in the same order: set in place, the records kept.
            let reverted = slot.pointee.appliedTraits
            slot.pointee.appliedTraits = list.pointee.traits.count
            return reverted
        }
        let reverted = revertingFirst ? slot.pointee.revertAll(on: object) : 0
        slot.pointee.undos.reserveCapacity(slot.pointee.undos.count + plan.count)
        // Counted first, so that undoing a partial apply reports what it undid.
        slot.pointee.appliedTraits = list.pointee.traits.count
        for index in plan.indices {
            switch plan[index] {
            case .bound(let binding):
                // One property of a property trait: through the class's binding, the old value
                // kept inline. A field left out (no setting) leaves its property alone. The plan
                // was made for this object's class and the kinds of the settings, so otherwise
                // the exchange always takes place.
                if let old = binding._withUnsafeGuaranteedRef({ $0.exchange(object, settings.baseAddress! + index) }) {
                    slot.pointee.undos.append(.restore(binding, old: old))
                }
            case .general(let trait):
                do throws(SpecError) {
                    slot.pointee.undos.append(
                        .reversal(
                            try reversal(
                                applying: list.pointee.traits[Int(trait)], to: object,
                                identifier: slot.pointee.identifier))
                    )
                } catch {
                    // This target's part is undone before the error goes up.
                    slot.pointee.revertAll(on: object)
                    throw error
                }
            case .covered:
                continue
            }
        }
        return reverted
    }

    /// Applies one trait through its own `apply(to:)` and returns its reversal.
    private static func reversal(
        applying resolved: ResolvedTrait, to object: AnyObject, identifier: String
    ) throws(SpecError) -> ErasedReversal {
        let reversal: ErasedReversal?
        do {
            reversal = try resolved.applyErased(to: object)
        } catch let error as SpecError {
            throw error
        } catch {
            throw SpecError(
                .applyFailed, at: resolved.location,
                "trait \(resolved.typeName) failed on '\(identifier)' (\(typeName(of: object))): \(error)")
        }
        guard let reversal else { throw missingCapability(resolved, identifier: identifier, object: object) }
        return reversal
    }

    /// The error for a trait whose `Target` the object is not.
    private static func missingCapability(
        _ resolved: ResolvedTrait, identifier: String, object: AnyObject
    ) -> SpecError {
        SpecError(
            .missingCapability, at: resolved.location,
            "trait \(resolved.typeName) cannot apply to '\(identifier)': \(typeName(of: object)) is not \(type(of: resolved.trait).targetDescription)"
        )
    }

    /// The class name of a target, for messages.
    static func typeName(of object: AnyObject) -> String {
        String(describing: type(of: object))
    }
}
