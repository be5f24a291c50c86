/// The all-or-nothing move from one resolution to another.
extension TraitsProvider {
    /// The live targets of the changed identifiers, each group with the traits it gets. Kept
    /// flat, with one trait list per identifier rather than one per target, because a load
    /// may touch every registered object.
    private struct Work {
        var targets: [(entry: RegisteredTarget, object: AnyObject, wasStyled: Bool)] = []
        var groups: [(traits: [ResolvedTrait], range: Range<Int>)] = []
    }

    func transition(to next: Resolution, theme: String?) throws -> LoadReport {
        let previous = currentResolution
        let changes = Self.changes(from: previous, to: next)
        let work = liveTargets(of: changes)

        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback.
        for group in work.groups {
            // Same class, same traits, same verdict: a group's targets are mostly of one class.
            var checkedClass: ObjectIdentifier?
            for (entry, object, _) in work.targets[group.range] {
                let objectClass = ObjectIdentifier(type(of: object))
                guard objectClass != checkedClass else { continue }
                try checkCapabilities(group.traits, entry: entry, object: object)
                checkedClass = objectClass
            }
        }

        var applied = 0
        var reverted = 0
        for group in work.groups {
            for index in group.range {
                let (entry, object, _) = work.targets[index]
                do {
                    let counts = try apply(group.traits, to: entry, object: object, revertingFirst: true)
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

    /// Puts back, newest first, the targets a failed load restyled (the last one already
    /// reverted its own part).
    private func rollBack(_ touched: ArraySlice<(entry: RegisteredTarget, object: AnyObject, wasStyled: Bool)>, to previous: Resolution) {
        for (entry, object, wasStyled) in touched.reversed() {
            entry.revertAll(on: object)
            guard wasStyled else { continue }
            do {
                try apply(previous.list(for: entry.identifier)?.traits ?? [], to: entry, object: object)
            } catch {
                // These traits applied to this target before; one that fails now is not deterministic.
                logger?.critical("could not restore '\(entry.identifier)' (\(Self.typeName(of: object))) after a failed load: \(error)")
            }
        }
    }

    /// The identifiers whose traits differ, in document order (removed ones last), each with
    /// its new traits.
    private static func changes(from previous: Resolution, to next: Resolution) -> [(identifier: String, traits: [ResolvedTrait])] {
        var changes: [(identifier: String, traits: [ResolvedTrait])] = []
        if previous.order == next.order {
            // The usual edit keeps the identifiers: compare side by side, without look-ups.
            for (index, list) in next.lists.enumerated() where !list.hasSameContent(as: previous.lists[index]) {
                changes.append((next.order[index], list.traits))
            }
            return changes
        }
        for (identifier, list) in zip(next.order, next.lists) where previous.list(for: identifier)?.hasSameContent(as: list) != true {
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
        for (identifier, traits) in changes {
            guard let entries = targetsByIdentifier[identifier] else { continue }
            let start = work.targets.count
            entries.forEach { entry in
                if let object = entry.object {
                    work.targets.append((entry, object, entry.isStyled))
                } else {
                    drop(entry)
                }
            }
            work.groups.append((traits, start..<work.targets.count))
        }
        return work
    }

    func checkCapabilities(_ traits: [ResolvedTrait], entry: RegisteredTarget, object: AnyObject) throws(SpecError) {
        let capabilities = capabilities(of: object)
        for resolved in traits where !capabilities.accepts(resolved, object: object) {
            throw SpecError(.missingCapability, at: resolved.location,
                "trait \(resolved.typeName) cannot apply to '\(entry.identifier)': \(Self.typeName(of: object)) is not \(type(of: resolved.trait).targetDescription)")
        }
    }

    /// Applies `traits` in order, recording reversals; on failure reverts this target's part.
    /// With `revertingFirst`, the target's current traits are reverted first (newest first).
    @discardableResult
    func apply(
        _ traits: [ResolvedTrait], to entry: RegisteredTarget, object: AnyObject, revertingFirst: Bool = false
    ) throws(SpecError) -> (applied: Int, reverted: Int) {
        // Worked on in a local array, taken and stored once: each access to a class's stored
        // property is checked for exclusivity, which cost more than the traits' own work.
        var kept: [ErasedReversal] = []
        swap(&kept, &entry.reversals)
        var reverted = 0
        if revertingFirst {
            reverted = kept.count
            while let reversal = kept.popLast() {
                reversal.revert(object)
            }
        }
        kept.reserveCapacity(kept.count + traits.count)
        // Through a buffer: `traits[index]` or `for resolved in traits` would copy each
        // resolved trait (and its existential) before calling it.
        let failure: SpecError? = traits.withUnsafeBufferPointer { traits in
            for index in traits.indices {
                do {
                    guard let reversal = try traits[index].applyErased(to: object) else {
                        let resolved = traits[index]
                        return SpecError(.missingCapability, at: resolved.location,
                            "trait \(resolved.typeName) cannot apply to '\(entry.identifier)': \(Self.typeName(of: object)) is not \(type(of: resolved.trait).targetDescription)")
                    }
                    kept.append(reversal)
                } catch {
                    if let error = error as? SpecError { return error }
                    let resolved = traits[index]
                    return SpecError(.applyFailed, at: resolved.location,
                        "trait \(resolved.typeName) failed on '\(entry.identifier)' (\(Self.typeName(of: object))): \(error)")
                }
            }
            return nil
        }
        entry.reversals = kept
        if let failure {
            // This target's part is undone before the error goes up.
            entry.revertAll(on: object)
            throw failure
        }
        return (traits.count, reverted)
    }

    /// The class name of a target, for messages.
    static func typeName(of object: AnyObject) -> String {
        String(describing: type(of: object))
    }
}
