extension Trait {
    /// The name of the `Target` type, for messages.
    static var targetDescription: String {
        String(describing: Target.self).replacingAnyPrefix()
    }
}

/// A ``Reversal`` whose target type has been erased, as the provider stores them.
struct ErasedReversal {
    let revert: (AnyObject) -> Void
}

extension String {
    /// "any HasCornerRadius" reads as "HasCornerRadius" in messages.
    fileprivate func replacingAnyPrefix() -> String {
        hasPrefix("any ") ? String(dropFirst(4)) : self
    }
}
