/// How to undo one applied trait. A target keeps these newest last, in one array whose storage
/// is reused from load to load.
enum Undo {
    /// A ``PropertyTrait``: put `old` back through the binding of the target's class.
    ///
    /// The binding is not retained: the provider keeps every binding it made (in the
    /// ``ClassCapabilities`` of its class) for as long as it lives, and undo records live only in
    /// its own slots. A retain and a release per applied trait, on objects every target of the
    /// class shares, were a sizeable part of a load.
    case restore(Unmanaged<PropertyBinding>, old: PropertyValue)
    /// Any other trait: run its reversal.
    case reversal(ErasedReversal)

    /// Undoes the trait on `object`, the object it was applied to. Consumes the record, so that
    /// the old value is handed on rather than copied and destroyed (see ``PropertyBinding/assign(_:_:)``).
    consuming func run(on object: AnyObject) {
        switch consume self {
        case .restore(let binding, let old): binding._withUnsafeGuaranteedRef { $0.assign(object, old) }
        case .reversal(let reversal): reversal.revert(object)
        }
    }
}
