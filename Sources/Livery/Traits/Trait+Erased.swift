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
    func applyErased(to object: AnyObject) throws -> (any ErasedReversal)? {
        guard let target = object as? Target else { return nil }
        return TypedReversal(reversal: try apply(to: target))
    }
}

/// A ``Reversal`` whose target type has been erased, as the provider stores them.
///
/// A protocol rather than a closure: a `TypedReversal` is one closure wide, so it fits in the
/// existential's inline buffer and keeping a reversal costs no allocation beyond the trait's own.
protocol ErasedReversal {
    func revert(_ object: AnyObject)
}

private struct TypedReversal<Target>: ErasedReversal {
    let reversal: Reversal<Target>

    func revert(_ object: AnyObject) {
        // The provider hands back the object the reversal was made for, so the cast holds.
        if let target = object as? Target { reversal.revert(target) }
    }
}

extension String {
    /// "any HasCornerRadius" reads as "HasCornerRadius" in messages.
    fileprivate func replacingAnyPrefix() -> String {
        hasPrefix("any ") ? String(dropFirst(4)) : self
    }
}
