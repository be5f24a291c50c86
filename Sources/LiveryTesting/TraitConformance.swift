import Livery

/// Checks the promise every trait makes: applying it and then its reversal restores the target
/// exactly, and several traits reverted newest first restore the original state.
///
/// Use it in your own tests for custom traits:
///
/// ```swift
/// try TraitConformance.checkReversal(of: [Blink(interval: 0.2), Blink(interval: 1)],
///                                    on: Cursor(), state: { $0.blinkInterval })
/// ```
public enum TraitConformance {
    /// A broken promise: what was expected and what the target held.
    public struct Failure: Error, CustomStringConvertible {
        /// Explains the failure.
        public var description: String
    }

    /// Applies `traits` in order to `target`, reverts them newest first, and checks that
    /// `state(target)` is back to what it was; also checks each trait alone.
    public static func checkReversal<T: Trait, State: Equatable>(
        of traits: [T], on target: T.Target, state: (T.Target) -> State
    ) throws {
        let original = state(target)
        for trait in traits {
            let reversal = try trait.apply(to: target)
            reversal.revert(target)
            let after = state(target)
            guard after == original else {
                throw Failure(
                    description: "\(T.typeName) alone: expected \(original) after its reversal, found \(after)")
            }
        }
        var reversals: [Reversal<T.Target>] = []
        for trait in traits {
            reversals.append(try trait.apply(to: target))
        }
        for reversal in reversals.reversed() {
            reversal.revert(target)
        }
        let after = state(target)
        guard after == original else {
            throw Failure(
                description:
                    "\(traits.count) × \(T.typeName) reverted newest first: expected \(original), found \(after)")
        }
    }
}
