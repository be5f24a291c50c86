/// What the provider knows about one class of registered objects: which trait types apply to it,
/// and for property traits the binding that applies them.
///
/// Shared by every target of the class. A dynamic cast to a capability protocol costs far more
/// than a look-up, and the answer never changes for a class, so each trait type is checked once.
final class ClassCapabilities {
    /// What one trait type can do with objects of this class.
    struct Verdict {
        /// Whether traits of the type apply at all.
        let capable: Bool
        /// For a ``PropertyTrait`` that applies: how to set its property without a cast.
        let binding: PropertyBinding?
    }

    /// Trait types checked so far. A program uses a handful of trait types, so a short array
    /// searched by identity beats hashing.
    private var verdicts: [(trait: ObjectIdentifier, verdict: Verdict)] = []

    /// What traits of `trait`'s type can do with objects of this class, `object` being one.
    func verdict(for trait: ResolvedTrait, object: AnyObject) -> Verdict {
        for (type, verdict) in verdicts where type == trait.typeID {
            return verdict
        }
        let verdict = trait.type.verdict(for: object)
        verdicts.append((trait.typeID, verdict))
        return verdict
    }

    /// Whether `trait` applies to objects of this class, `object` being one.
    func accepts(_ trait: ResolvedTrait, object: AnyObject) -> Bool {
        verdict(for: trait, object: object).capable
    }
}
