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
        /// For a ``PropertyTrait`` that applies: how to set each of its properties without a
        /// cast, in order. Empty for any other trait.
        let bindings: [PropertyBinding]
    }

    /// How the provider applies one property of a trait, or one trait, to objects of this class,
    /// once its verdict allows it. A property trait takes one step per property, as does a
    /// named-property trait (`Set`) per value, even where it applies through its own `apply(to:)`.
    ///
    /// Holds no reference it counts, so a load copies steps for free: the binding is kept alive by
    /// the verdict that made it, which this object keeps for as long as the provider lives.
    enum Step {
        /// Through the class's binding for one property of a ``PropertyTrait``.
        case bound(Unmanaged<PropertyBinding>)
        /// Through the trait's own `apply(to:)`: the trait at this position of the list. An
        /// `Int32`, so that a step fits in the binding's eight bytes (an `Int` takes a ninth for
        /// the case, and a load reads a plan's steps for every target).
        case general(trait: Int32)
        /// A further step of a trait that applies through its own `apply(to:)` at its first step:
        /// nothing to do.
        case covered
    }

    /// Trait shapes checked so far. A program uses a handful of trait types, so a short array
    /// searched by comparison beats hashing.
    private var verdicts: [(shape: ResolvedTrait.Shape, verdict: Verdict)] = []

    /// What traits of `trait`'s shape can do with objects of this class, `object` being one.
    func verdict(for trait: ResolvedTrait, object: AnyObject) -> Verdict {
        // By index: iterating the pairs would copy (and retain) every binding passed over.
        for index in verdicts.indices where verdicts[index].shape == trait.shape {
            return verdicts[index].verdict
        }
        let verdict = trait.type.verdict(for: object, names: trait.shape.names, kinds: trait.shape.kinds)
        verdicts.append((trait.shape, verdict))
        return verdict
    }
}
