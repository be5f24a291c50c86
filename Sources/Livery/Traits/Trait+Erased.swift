/// Applying a trait to an object whose type is known only at run time.
extension Trait {
    /// The name of the `Target` type, for messages.
    static var targetDescription: String {
        String(describing: Target.self).replacingAnyPrefix()
    }

    /// Whether `object` is something this trait applies to.
    func canApply(to object: AnyObject) -> Bool {
        object is Target
    }

    /// Applies to `object` if it is a `Target`; returns nil if it is not.
    func applyErased(to object: AnyObject) throws -> ErasedReversal? {
        guard let target = object as? Target else { return nil }
        let reversal = try apply(to: target)
        return ErasedReversal { object in
            // The provider hands back the object the reversal was made for, so the cast holds.
            if let target = object as? Target { reversal.revert(target) }
        }
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
