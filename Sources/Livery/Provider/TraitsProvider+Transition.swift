/// The all-or-nothing move from one resolution to another.
extension TraitsProvider {
    /// A live target a load restyles.
    struct Touched {
        let entry: RegisteredTarget
        let object: AnyObject
        let capabilities: ClassCapabilities
        /// Whether it had traits applied before the load, so a rollback knows to re-apply them.
        let wasStyled: Bool
        /// Which of the load's plans its traits apply by (set by the capability check).
        var plan = 0
    }

    /// The live targets of the changed identifiers, each group with the traits it gets. Kept
    /// flat, with one trait list per identifier rather than one per target, because a load
    /// may touch every registered object.
    private struct Work {
        var targets: [Touched] = []
        var groups: [Group] = []
        /// How each trait of a group applies to a class, shared by the targets of one class whose
        /// groups have the same trait types in the same order.
        var plans: [[ClassCapabilities.Step]] = []
    }

    /// The targets `range` of ``Work/targets`` and the traits they get. A struct, not a tuple:
    /// an array of tuples is destroyed element by element through the runtime's generic code.
    private struct Group {
        let list: Resolution.List
        let range: Range<Int>
    }

    /// An identifier whose traits differ, and its new traits.
    private struct Change {
        let identifier: String
        let list: Resolution.List
    }

    func transition(to next: Resolution, theme: String?) throws -> LoadReport {
        let previous = currentResolution
        let changes = Self.changes(from: previous, to: next)
        var work = liveTargets(of: changes)

        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback. A plan depends only on the class and the trait types,
        // which consecutive targets mostly share, so a repeat of both reuses the last one.
        // The last plan's class and list, compared in place: binding them to a local would
        // retain (and release) both for every target.
        var lastCapabilities: ClassCapabilities?
        var lastList = Resolution.List.empty
        for group in work.groups {
            for index in group.range {
                let capabilities = work.targets[index].capabilities
                if lastCapabilities === capabilities, Self.sameTypes(lastList, group.list) {
                    work.targets[index].plan = work.plans.count - 1
                    continue
                }
                let entry = work.targets[index].entry
                work.plans.append(
                    try plan(group.list.traits, entry: entry, object: work.targets[index].object, capabilities))
                work.targets[index].plan = work.plans.count - 1
                lastCapabilities = capabilities
                lastList = group.list
            }
        }

        var applied = 0
        var reverted = 0
        let failure: (index: Int, error: SpecError)? = work.targets.withUnsafeBufferPointer { targets in
            // Through buffers: copying a `Touched` or a plan out of its array would retain (and
            // release) everything it holds, the weakly referenced object through its side table.
            work.plans.withUnsafeBufferPointer { plans in
                work.groups.withUnsafeBufferPointer { groups in
                    for group in groups.indices {
                        for index in groups[group].range {
                            do throws(SpecError) {
                                let counts = try apply(
                                    groups[group].list, plans[targets[index].plan], to: targets[index].entry,
                                    object: targets[index].object, revertingFirst: true)
                                applied += counts.applied
                                reverted += counts.reverted
                            } catch {
                                return (index, error)
                            }
                        }
                    }
                    return nil
                }
            }
        }
        if let failure {
            rollBack(work.targets[...failure.index], to: previous)
            throw failure.error
        }
        currentResolution = next
        return LoadReport(
            changedIdentifiers: changes.map(\.identifier), targetsTouched: work.targets.count,
            traitsApplied: applied, traitsReverted: reverted, theme: theme)
    }

    /// Whether both lists have the same trait types in the same order.
    private static func sameTypes(_ first: Resolution.List, _ second: Resolution.List) -> Bool {
        first.settings.count == second.settings.count
            && first.settings.indices.allSatisfy { first.settings[$0].type == second.settings[$0].type }
    }

    /// Puts back, newest first, the targets a failed load restyled (the last one already
    /// reverted its own part).
    private func rollBack(_ touched: ArraySlice<Touched>, to previous: Resolution) {
        for target in touched.reversed() {
            target.entry.revertAll(on: target.object)
            guard target.wasStyled else { continue }
            do {
                let list = previous.list(for: target.entry.identifier) ?? .empty
                let plan = try plan(list.traits, entry: target.entry, object: target.object, target.capabilities)
                try apply(list, plan, to: target.entry, object: target.object)
            } catch {
                // These traits applied to this target before; one that fails now is not deterministic.
                logger.critical(
                    "could not restore a target after a failed load",
                    metadata: [
                        "livery.identifier": "\(target.entry.identifier)",
                        "livery.type": "\(Self.typeName(of: target.object))", "error": "\(error)",
                    ])
            }
        }
    }

    /// The identifiers whose traits differ, in document order (removed ones last), each with
    /// its new traits.
    private static func changes(
        from previous: Resolution, to next: Resolution
    ) -> [Change] {
        var changes: [Change] = []
        if previous.order == next.order {
            // The usual edit keeps the identifiers: compare side by side, without look-ups.
            for (index, list) in next.lists.enumerated() where !list.hasSameContent(as: previous.lists[index]) {
                changes.append(Change(identifier: next.order[index], list: list))
            }
            return changes
        }
        for (identifier, list) in zip(next.order, next.lists)
        where previous.list(for: identifier)?.hasSameContent(as: list) != true {
            changes.append(Change(identifier: identifier, list: list))
        }
        for identifier in previous.order where next.list(for: identifier) == nil {
            changes.append(Change(identifier: identifier, list: .empty))
        }
        return changes
    }

    /// The live targets of the changed identifiers; forgets entries whose objects are gone.
    private func liveTargets(of changes: [Change]) -> Work {
        var work = Work()
        // Sized once: grown by doubling, a large load would copy its arrays several times.
        work.groups.reserveCapacity(changes.count)
        work.targets.reserveCapacity(changes.count)
        // Consecutive targets are mostly of one class: its capabilities are looked up once.
        var last: (objectClass: ObjectIdentifier, capabilities: ClassCapabilities)?
        // Read once: each access to a class's stored property is checked for exclusivity.
        let targetsByIdentifier = self.targetsByIdentifier
        for change in changes {
            guard let entries = targetsByIdentifier[change.identifier] else { continue }
            let start = work.targets.count
            entries.forEach { entry in
                guard let object = entry.object else { return drop(entry) }
                let objectClass = ObjectIdentifier(type(of: object))
                let capabilities: ClassCapabilities
                if let last, last.objectClass == objectClass {
                    capabilities = last.capabilities
                } else {
                    capabilities = self.capabilities(of: object)
                    last = (objectClass, capabilities)
                }
                work.targets.append(
                    Touched(entry: entry, object: object, capabilities: capabilities, wasStyled: entry.isStyled))
            }
            work.groups.append(Group(list: change.list, range: start..<work.targets.count))
        }
        return work
    }

    /// How each of `traits` applies to `object`, in order: the capability check before anything
    /// is touched, and what the apply then follows. Throws for the first trait the object's
    /// class cannot take.
    func plan(
        _ traits: [ResolvedTrait], entry: RegisteredTarget, object: AnyObject, _ capabilities: ClassCapabilities
    ) throws(SpecError) -> [ClassCapabilities.Step] {
        var plan: [ClassCapabilities.Step] = []
        plan.reserveCapacity(traits.count)
        for index in traits.indices {
            let verdict = capabilities.verdict(for: traits[index], object: object)
            guard verdict.capable else { throw Self.missingCapability(traits[index], entry: entry, object: object) }
            plan.append(ClassCapabilities.Step(verdict))
        }
        return plan
    }

    /// Applies `list`'s traits in order as `plan` (from ``plan(_:entry:object:_:)``) says,
    /// recording how to undo each; on failure reverts this target's part. With `revertingFirst`,
    /// the target's current traits are reverted first (newest first).
    @discardableResult
    func apply(
        _ list: Resolution.List, _ plan: [ClassCapabilities.Step], to entry: RegisteredTarget,
        object: AnyObject, revertingFirst: Bool = false
    ) throws(SpecError) -> (applied: Int, reverted: Int) {
        // Worked on in a local array, taken and stored once: each access to a class's stored
        // property is checked for exclusivity, which cost more than the traits' own work.
        var kept: [Undo] = []
        swap(&kept, &entry.undos)
        var reverted = 0
        if revertingFirst {
            reverted = kept.count
            while let undo = kept.popLast() {
                undo.run(on: object)
            }
        }
        kept.reserveCapacity(kept.count + plan.count)
        // Through buffers: `plan[index]` or `for step in plan` would copy each element (and
        // retain what it holds) before using it.
        let failure: SpecError? = list.settings.withUnsafeBufferPointer { settings in
            plan.withUnsafeBufferPointer { plan in
                for index in plan.indices {
                    // A property trait: through the class's binding, the old value kept inline.
                    if case .bound(let binding) = plan[index], let setting = settings[index].value,
                        let old = binding._withUnsafeGuaranteedRef({ $0.exchange(object, setting) })
                    {
                        kept.append(.restore(binding, old: old))
                        continue
                    }
                    do throws(SpecError) {
                        kept.append(
                            .reversal(try Self.reversal(applying: list.traits[index], to: object, entry: entry)))
                    } catch {
                        return error
                    }
                }
                return nil
            }
        }
        entry.undos = kept
        if let failure {
            // This target's part is undone before the error goes up.
            entry.revertAll(on: object)
            throw failure
        }
        return (plan.count, reverted)
    }

    /// Applies one trait through its own `apply(to:)` and returns its reversal.
    private static func reversal(
        applying resolved: ResolvedTrait, to object: AnyObject, entry: RegisteredTarget
    ) throws(SpecError) -> ErasedReversal {
        let reversal: ErasedReversal?
        do {
            reversal = try resolved.applyErased(to: object)
        } catch let error as SpecError {
            throw error
        } catch {
            throw SpecError(
                .applyFailed, at: resolved.location,
                "trait \(resolved.typeName) failed on '\(entry.identifier)' (\(typeName(of: object))): \(error)")
        }
        guard let reversal else { throw missingCapability(resolved, entry: entry, object: object) }
        return reversal
    }

    /// The error for a trait whose `Target` the object is not.
    private static func missingCapability(
        _ resolved: ResolvedTrait, entry: RegisteredTarget, object: AnyObject
    ) -> SpecError {
        SpecError(
            .missingCapability, at: resolved.location,
            "trait \(resolved.typeName) cannot apply to '\(entry.identifier)': \(typeName(of: object)) is not \(type(of: resolved.trait).targetDescription)"
        )
    }

    /// The class name of a target, for messages.
    static func typeName(of object: AnyObject) -> String {
        String(describing: type(of: object))
    }
}
