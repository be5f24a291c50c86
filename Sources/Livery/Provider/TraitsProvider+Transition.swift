/// The all-or-nothing move from one resolution to another.
///
/// A load works on plain values: slot positions, plan offsets and flags, in a few flat arrays.
/// Nothing a load makes per target holds a counted reference, because a retain and a release
/// for every target a step passed along were most of a large load's time.
extension TraitsProvider {
    /// A live target a load restyles.
    struct Touched {
        /// Its position in ``TraitsProvider/slots``.
        let slot: Int
        /// Where its plan starts in ``Work/steps``; the plan is as long as the group's list.
        let plan: Int
        /// Whether it had traits applied before the load, so a rollback knows to re-apply them.
        let wasStyled: Bool
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
        // The placement is now next's, and still the current resolution's if the order is the same.
        placementIsCurrent = sameOrder
        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback.
        var work = try work(from: previous, to: next, sameOrder: sameOrder)

        var touched = 0
        var applied = 0
        var reverted = 0
        var failure: (index: Int, error: SpecError)?
        isApplying = true
        slots.withUnsafeMutableBufferPointer { slots in
            let slots = slots.baseAddress!
            next.lists.withUnsafeBufferPointer { lists in
                for group in work.groups {
                    // An identifier the next resolution no longer names gets no traits.
                    let position = group.position ?? -1
                    let result =
                        position >= 0
                        ? Self.apply(lists[position], group.range, work: &work, slots: slots)
                        : Self.apply(.empty, group.range, work: &work, slots: slots)
                    touched += result.touched
                    applied += result.applied
                    reverted += result.reverted
                    if let error = result.failure {
                        failure = error
                        return
                    }
                }
            }
        }
        isApplying = false
        if let failure {
            rollBack(work.touched[...failure.index], to: previous)
            forgetGone(work.gone)
            throw failure.error
        }
        forgetGone(work.gone)
        currentResolution = next
        placementIsCurrent = placementIsCurrent || work.gone.isEmpty
        return LoadReport(
            changedIdentifiers: work.changedIdentifiers, targetsTouched: touched,
            traitsApplied: applied, traitsReverted: reverted, theme: theme)
    }

    /// Applies one group's list to its targets, each after reverting what it has; stops at the
    /// first failure, with that target's own part already undone.
    private static func apply(
        _ list: Resolution.List, _ range: Range<Int>, work: inout Work, slots: UnsafeMutablePointer<TargetSlot>
    ) -> (touched: Int, applied: Int, reverted: Int, failure: (index: Int, error: SpecError)?) {
        var touched = 0
        var applied = 0
        var reverted = 0
        let count = list.traits.count
        for index in range {
            let target = work.touched[index]
            let slot = slots + target.slot
            guard let object = slot.pointee.object else {
                work.gone.append(target.slot)
                continue
            }
            touched += 1
            do throws(SpecError) {
                let plan = work.steps[target.plan..<target.plan + count]
                let counts = try apply(list, plan, to: slot, object: object, revertingFirst: true)
                applied += counts.applied
                reverted += counts.reverted
            } catch {
                return (touched, applied, reverted, (index, error))
            }
        }
        return (touched, applied, reverted, nil)
    }

    /// The changed identifiers and, for each, its live targets with the plan each follows: every
    /// capability checked. Throws for the first trait a target's class cannot take.
    private func work(from previous: Resolution, to next: Resolution, sameOrder: Bool) throws(SpecError) -> Work {
        var positions: [Int] = []
        var removed: [String] = []
        if sameOrder {
            // The usual edit keeps the identifiers: compare side by side, without look-ups.
            for position in next.lists.indices
            where !next.lists[position].hasSameContent(as: previous.lists[position]) {
                positions.append(position)
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
        for position in positions {
            work.changedIdentifiers.append(next.order[position])
            try plan(next.lists[position], position: position, placement.slots[placement.range(at: position)], &work, &planner)
        }
        for identifier in removed {
            work.changedIdentifiers.append(identifier)
            var removedSlots: [Int] = []
            slotsByIdentifier[identifier]?.forEach { removedSlots.append($0) }
            try plan(.empty, position: nil, removedSlots[...], &work, &planner)
        }
        return work
    }

    /// The last plan made in a load, which the next target reuses if its class and trait types
    /// are the same.
    private struct Planner {
        var capabilities: Unmanaged<ClassCapabilities>?
        var types: [ResolvedSetting] = []
        var start = 0
    }

    /// Adds one group: `list`'s targets in `targets` (slot positions), each with its plan.
    private func plan(
        _ list: Resolution.List, position: Int?, _ targets: ArraySlice<Int>, _ work: inout Work,
        _ planner: inout Planner
    ) throws(SpecError) {
        let start = work.touched.count
        for index in targets {
            let capabilities = slots[index].capabilities
            if planner.capabilities?.toOpaque() != capabilities.toOpaque() || !Self.sameTypes(planner.types, list.settings) {
                // A new plan needs the object (a trait type's capability is a cast of it).
                guard let object = slots[index].object else {
                    work.gone.append(index)
                    continue
                }
                let identifier = slots[index].identifier
                planner.start = work.steps.count
                work.steps += try plan(list.traits, identifier: identifier, object: object, capabilities.takeUnretainedValue())
                planner.capabilities = capabilities
                planner.types = list.settings
            }
            work.touched.append(Touched(slot: index, plan: planner.start, wasStyled: slots[index].isStyled))
        }
        work.groups.append(Group(position: position, range: start..<work.touched.count))
    }

    /// Whether both lists have the same trait types in the same order.
    private static func sameTypes(_ first: [ResolvedSetting], _ second: [ResolvedSetting]) -> Bool {
        first.count == second.count && first.indices.allSatisfy { first[$0].type == second[$0].type }
    }

    /// Frees the slots of objects found gone during a load.
    private func forgetGone(_ gone: [Int]) {
        for index in gone where slots[index].object == nil && !slots[index].identifier.isEmpty {
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
            let identifier = slots[target.slot].identifier
            do {
                let list = previous.list(for: identifier) ?? .empty
                let plan = try plan(list.traits, identifier: identifier, object: object, capabilities(of: object))
                try withSlot(target.slot) { slot throws(SpecError) in
                    try Self.apply(list, plan[...], to: slot, object: object)
                }
            } catch {
                // These traits applied to this target before; one that fails now is not deterministic.
                logger.critical(
                    "could not restore a target after a failed load",
                    metadata: [
                        "livery.identifier": "\(identifier)", "livery.type": "\(Self.typeName(of: object))",
                        "error": "\(error)",
                    ])
            }
        }
    }

    /// How each of `traits` applies to `object`, in order: the capability check before anything
    /// is touched, and what the apply then follows. Throws for the first trait the object's
    /// class cannot take.
    func plan(
        _ traits: [ResolvedTrait], identifier: String, object: AnyObject, _ capabilities: ClassCapabilities
    ) throws(SpecError) -> [ClassCapabilities.Step] {
        var plan: [ClassCapabilities.Step] = []
        plan.reserveCapacity(traits.count)
        for index in traits.indices {
            let verdict = capabilities.verdict(for: traits[index], object: object)
            guard verdict.capable else {
                throw Self.missingCapability(traits[index], identifier: identifier, object: object)
            }
            plan.append(ClassCapabilities.Step(verdict))
        }
        return plan
    }

    /// Applies `list`'s traits in order as `plan` (from ``plan(_:identifier:object:_:)``) says,
    /// recording how to undo each in the slot; on failure reverts this target's part. With
    /// `revertingFirst`, the target's current traits are reverted first (newest first).
    @discardableResult
    static func apply(
        _ list: Resolution.List, _ plan: ArraySlice<ClassCapabilities.Step>, to slot: UnsafeMutablePointer<TargetSlot>,
        object: AnyObject, revertingFirst: Bool = false
    ) throws(SpecError) -> (applied: Int, reverted: Int) {
        let reverted = revertingFirst ? slot.pointee.revertAll(on: object) : 0
        slot.pointee.undos.reserveCapacity(slot.pointee.undos.count + plan.count)
        // Through buffers: `plan[index]` or `for step in plan` would copy each element (and
        // retain what it holds) before using it.
        let failure: SpecError? = list.settings.withUnsafeBufferPointer { settings in
            plan.withUnsafeBufferPointer { plan in
                for index in plan.indices {
                    // A property trait: through the class's binding, the old value kept inline.
                    if case .bound(let binding) = plan[index], let setting = settings[index].value,
                        let old = binding._withUnsafeGuaranteedRef({ $0.exchange(object, setting) })
                    {
                        slot.pointee.undos.append(.restore(binding, old: old))
                        continue
                    }
                    do throws(SpecError) {
                        slot.pointee.undos.append(
                            .reversal(
                                try reversal(
                                    applying: list.traits[index], to: object, identifier: slot.pointee.identifier)))
                    } catch {
                        return error
                    }
                }
                return nil
            }
        }
        if let failure {
            // This target's part is undone before the error goes up.
            slot.pointee.revertAll(on: object)
            throw failure
        }
        return (plan.count, reverted)
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
