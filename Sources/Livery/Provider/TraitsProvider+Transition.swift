/// The all-or-nothing move from one resolution to another.
extension TraitsProvider {
    /// A target being restyled, with what it had before.
    private struct Step {
        let entry: RegisteredTarget
        let object: AnyObject
        let wasStyled: Bool
    }

    func transition(to next: Resolution, theme: String?) throws -> LoadReport {
        let previous = currentResolution
        let changed = Self.changedIdentifiers(from: previous, to: next)
        let work = liveTargets(for: changed, in: next)

        // Capabilities are known before anything is touched: check them all first, so the
        // common mistake costs no rollback.
        for (entry, object, traits) in work {
            try checkCapabilities(traits, entry: entry, object: object)
        }

        var done: [Step] = []
        done.reserveCapacity(work.count)
        var applied = 0
        var reverted = 0
        for (entry, object, traits) in work {
            let step = Step(entry: entry, object: object, wasStyled: entry.isStyled)
            reverted += entry.revertAll(on: object)
            do {
                applied += try apply(traits, to: entry, object: object)
            } catch {
                restore(step, from: previous)
                for earlier in done.reversed() {
                    earlier.entry.revertAll(on: earlier.object)
                    restore(earlier, from: previous)
                }
                throw error
            }
            done.append(step)
        }
        currentResolution = next
        return LoadReport(
            changedIdentifiers: changed, targetsTouched: work.count, traitsApplied: applied,
            traitsReverted: reverted, theme: theme)
    }

    /// Puts a target back as it was under `previous`, after a failed load reverted it.
    private func restore(_ step: Step, from previous: Resolution) {
        guard step.wasStyled else { return }
        do {
            try apply(previous.lists[step.entry.identifier]?.traits ?? [], to: step.entry, object: step.object)
        } catch {
            // These traits applied to this target before; one that fails now is not deterministic.
            logger?.critical("could not restore '\(step.entry.identifier)' (\(step.entry.typeName)) after a failed load: \(error)")
        }
    }

    private static func changedIdentifiers(from previous: Resolution, to next: Resolution) -> [String] {
        var changed = next.order.filter { previous.lists[$0]?.contentKey != next.lists[$0]?.contentKey }
        changed += previous.order.filter { next.lists[$0] == nil }
        return changed
    }

    /// The live targets of `identifiers`, each with the traits `next` gives it (looked up once
    /// per identifier, not per target).
    private func liveTargets(
        for identifiers: [String], in next: Resolution
    ) -> [(RegisteredTarget, AnyObject, [ResolvedTrait])] {
        var live: [(RegisteredTarget, AnyObject, [ResolvedTrait])] = []
        for identifier in identifiers {
            guard let entries = targetsByIdentifier[identifier] else { continue }
            let traits = next.lists[identifier]?.traits ?? []
            for entry in entries.values {
                if let object = entry.object {
                    live.append((entry, object, traits))
                } else {
                    drop(entry)
                }
            }
        }
        return live
    }

    func checkCapabilities(_ traits: [ResolvedTrait], entry: RegisteredTarget, object: AnyObject) throws(SpecError) {
        for resolved in traits {
            let key = CapabilityKey(classID: entry.classID, traitID: resolved.typeID)
            let capable: Bool
            if let known = capabilities[key] {
                capable = known
            } else {
                capable = resolved.trait.canApply(to: object)
                capabilities[key] = capable
            }
            guard !capable else { continue }
            throw SpecError(.missingCapability, at: resolved.location,
                "trait \(resolved.typeName) cannot apply to '\(entry.identifier)': \(entry.typeName) is not \(type(of: resolved.trait).targetDescription)")
        }
    }

    /// Applies `traits` in order, recording reversals; on failure reverts this target's part.
    @discardableResult
    func apply(_ traits: [ResolvedTrait], to entry: RegisteredTarget, object: AnyObject) throws(SpecError) -> Int {
        entry.reversals.reserveCapacity(traits.count)
        for resolved in traits {
            let reversal: ErasedReversal?
            do {
                reversal = try resolved.trait.applyErased(to: object)
            } catch {
                entry.revertAll(on: object)
                if let error = error as? SpecError { throw error }
                throw SpecError(.applyFailed, at: resolved.location,
                    "trait \(resolved.typeName) failed on '\(entry.identifier)' (\(entry.typeName)): \(error)")
            }
            guard let reversal else {
                entry.revertAll(on: object)
                throw SpecError(.missingCapability, at: resolved.location,
                    "trait \(resolved.typeName) cannot apply to '\(entry.identifier)': \(entry.typeName) is not \(type(of: resolved.trait).targetDescription)")
            }
            entry.reversals.append(reversal)
        }
        entry.isStyled = true
        return traits.count
    }
}
