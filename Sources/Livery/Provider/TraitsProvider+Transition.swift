/// The all-or-nothing move from one resolution to another.
extension TraitsProvider {
    /// A live target a load restyles.
    struct Touched {
        let entry: RegisteredTarget
        let object: AnyObject
        let capabilities: ClassCapabilities
        /// Whether it had traits applied before the load, so a rollback knows to re-apply them.
        let wasStyled: Bool
    }

    /// The live targets of the changed identifiers, each group with the traits it gets. Kept
    /// flat, with one trait list per identifier rather than one per target, because a load
    /// may touch every registered object.
    private struct Work {
        var targets: [Touched] = []
        var groups: [(traits: [ResolvedTrait], range: Range<Int>)] = []
    }

    func transition(to next: Resolution, theme: String?) throws -> LoadReport {
        let previous = currentResolution
        let changes = Self.changes(from: previous, to: next)
        let work = liveTargets(of: changes)

        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback. The verdict depends only on the class and the trait
        // types, which consecutive targets mostly share, so a repeat of both is not checked again.
        var checked: (capabilities: ClassCapabilities, traits: [ResolvedTrait])?
        for group in work.groups {
            for touched in work.targets[group.range] {
                if let checked, checked.capabilities === touched.capabilities,
                    Self.sameTypes(checked.traits, group.traits)
                {
                    continue
                }
                try checkCapabilities(group.traits, entry: touched.entry, object: touched.object, touched.capabilities)
                checked = (touched.capabilities, group.traits)
            }
        }

        var applied = 0
        var reverted = 0
        for group in work.groups {
            for index in group.range {
                let touched = work.targets[index]
                do {
                    let counts = try apply(
                        group.traits, to: touched.entry, object: touched.object, touched.capabilities,
                        revertingFirst: true)
                    applied += counts.applied
                    reverted += counts.reverted
                } catch {
                    rollBack(work.targets[...index], to: previous)
                    throw error
                }
            }
        }
        currentResolution = next
        return LoadReport(
            changedIdentifiers: changes.map(\.identifier), targetsTouched: work.targets.count,
            traitsApplied: applied, traitsReverted: reverted, theme: theme)
    }

    /// Whether both lists have the same trait types in the same order.
    private static func sameTypes(_ first: [ResolvedTrait], _ second: [ResolvedTrait]) -> Bool {
        first.count == second.count && first.indices.allSatisfy { first[$0].type === second[$0].type }
    }

    /// Puts back, newest first, the targets a failed load restyled (the last one already
    /// reverted its own part).
    private func rollBack(_ touched: ArraySlice<Touched>, to previous: Resolution) {
        for target in touched.reversed() {
            target.entry.revertAll(on: target.object)
            guard target.wasStyled else { continue }
            do {
                try apply(
                    previous.list(for: target.entry.identifier)?.traits ?? [], to: target.entry, object: target.object,
                    target.capabilities)
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
    ) -> [(identifier: String, traits: [ResolvedTrait])] {
        var changes: [(identifier: String, traits: [ResolvedTrait])] = []
        if previous.order == next.order {
            // The usual edit keeps the identifiers: compare side by side, without look-ups.
            for (index, list) in next.lists.enumerated() where !list.hasSameContent(as: previous.lists[index]) {
                changes.append((next.order[index], list.traits))
            }
            return changes
        }
        for (identifier, list) in zip(next.order, next.lists)
        where previous.list(for: identifier)?.hasSameContent(as: list) != true {
            changes.append((identifier, list.traits))
        }
        for identifier in previous.order where next.list(for: identifier) == nil {
            changes.append((identifier, []))
        }
        return changes
    }

    /// The live targets of the changed identifiers; forgets entries whose objects are gone.
    private func liveTargets(of changes: [(identifier: String, traits: [ResolvedTrait])]) -> Work {
        var work = Work()
        // Consecutive targets are mostly of one class: its capabilities are looked up once.
        var last: (objectClass: ObjectIdentifier, capabilities: ClassCapabilities)?
        for (identifier, traits) in changes {
            guard let entries = targetsByIdentifier[identifier] else { continue }
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
            work.groups.append((traits, start..<work.targets.count))
        }
        return work
    }

    func checkCapabilities(
        _ traits: [ResolvedTrait], entry: RegisteredTarget, object: AnyObject, _ capabilities: ClassCapabilities
    ) throws(SpecError) {
        // Through a buffer, as in `apply`: no copy of each resolved trait.
        let missing = traits.withUnsafeBufferPointer { traits in
            traits.firstIndex { !capabilities.accepts($0, object: object) }
        }
        if let missing { throw Self.missingCapability(traits[missing], entry: entry, object: object) }
    }

    /// Applies `traits` in order, recording how to undo each; on failure reverts this target's
    /// part. With `revertingFirst`, the target's current traits are reverted first (newest first).
    @discardableResult
    func apply(
        _ traits: [ResolvedTrait], to entry: RegisteredTarget, object: AnyObject, _ capabilities: ClassCapabilities,
        revertingFirst: Bool = false
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
        kept.reserveCapacity(kept.count + traits.count)
        // Through a buffer: `traits[index]` or `for resolved in traits` would copy each
        // resolved trait (and its existential) before calling it.
        let failure: SpecError? = traits.withUnsafeBufferPointer { traits in
            for index in traits.indices {
                do throws(SpecError) {
                    kept.append(try Self.undo(applying: traits[index], to: object, entry: entry, capabilities))
                } catch {
                    return error
                }
            }
            return nil
        }
        entry.undos = kept
        if let failure {
            // This target's part is undone before the error goes up.
            entry.revertAll(on: object)
            throw failure
        }
        return (traits.count, reverted)
    }

    /// Applies one trait and returns how to undo it: through the class's binding for a property
    /// trait (no cast, the old value kept inline), otherwise through the trait's own `apply`.
    private static func undo(
        applying resolved: ResolvedTrait, to object: AnyObject, entry: RegisteredTarget,
        _ capabilities: ClassCapabilities
    ) throws(SpecError) -> Undo {
        if let setting = resolved.setting, let binding = capabilities.verdict(for: resolved, object: object).binding,
            let old = binding.exchange(object, setting)
        {
            return .restore(binding, old: old)
        }
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
        return .reversal(reversal)
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
