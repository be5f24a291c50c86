/// Undoes one application of a trait.
///
/// A reversal receives the target when it runs, so it never needs to capture (and keep alive)
/// the object it restores. Capture the old values instead:
///
/// ```swift
/// let old = target.cornerRadius
/// target.cornerRadius = radius
/// return Reversal { $0.cornerRadius = old }
/// ```
public struct Reversal<Target> {
    private let undo: (Target) -> Void

    /// Creates a reversal from the closure that restores the target.
    public init(_ undo: @escaping (Target) -> Void) {
        self.undo = undo
    }

    /// A reversal that changes nothing, for a trait that changed nothing.
    public static var none: Reversal { Reversal { _ in } }

    /// Restores `target`.
    public func revert(_ target: Target) {
        undo(target)
    }

    /// A reversal that runs `self`, then `earlier`: the newest change is undone first.
    public func followed(by earlier: Reversal<Target>) -> Reversal<Target> {
        Reversal { target in
            self.revert(target)
            earlier.revert(target)
        }
    }
}
