/// A small, decodable change to a target that knows how to undo itself.
///
/// `apply(to:)` changes the target and returns a ``Reversal`` that puts back exactly what it
/// changed and nothing else. The associated `Target` type restricts what a trait applies to:
/// usually a capability protocol such as ``HasCornerRadius``, or a concrete class.
///
/// ```swift
/// struct Blink: Trait {
///     static let typeName = "Blink"
///     var interval: Double
///     func apply(to cursor: Cursor) throws -> Reversal<Cursor> {
///         let old = cursor.blinkInterval
///         cursor.blinkInterval = interval
///         return Reversal { $0.blinkInterval = old }
///     }
/// }
/// ```
///
/// Fields decode from the trait's entry in a spec; a missing optional field means "leave this
/// property unchanged".
public protocol Trait: Codable, Sendable {
    /// What the trait applies to.
    associatedtype Target

    /// The name used in specs: `type: CornerRadius`.
    static var typeName: String { get }

    /// Changes `target` and returns how to undo exactly that change.
    func apply(to target: Target) throws -> Reversal<Target>
}
