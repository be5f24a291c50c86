/// How to undo one applied trait. A target keeps these newest last, in one array whose storage
/// is reused from load to load.
enum Undo {
    /// A ``PropertyTrait``: put `old` back through the binding of the target's class.
    case restore(PropertyBinding, old: PropertyValue)
    /// Any other trait: run its reversal.
    case reversal(ErasedReversal)

    /// Undoes the trait on `object`, the object it was applied to.
    func run(on object: AnyObject) {
        switch self {
        case .restore(let binding, let old): _ = binding.exchange(object, old)
        case .reversal(let reversal): reversal.revert(object)
        }
    }
}
