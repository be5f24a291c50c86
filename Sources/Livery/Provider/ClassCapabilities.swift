/// What the provider knows about one class of registered objects: which trait types apply to it.
///
/// Shared by every target of the class. A dynamic cast to a capability protocol costs far more
/// than a look-up, and the answer never changes for a class, so each trait type is cast once.
final class ClassCapabilities {
    /// Trait types checked so far. A program uses a handful of trait types, so a short array
    /// searched by identity beats hashing.
    private var verdicts: [(trait: ObjectIdentifier, capable: Bool)] = []

    /// Whether `trait` applies to objects of this class, `object` being one.
    func accepts(_ trait: ResolvedTrait, object: AnyObject) -> Bool {
        for verdict in verdicts where verdict.trait == trait.typeID {
            return verdict.capable
        }
        let capable = trait.canApply(to: object)
        verdicts.append((trait.typeID, capable))
        return capable
    }
}
