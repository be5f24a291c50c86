/// Brings in the traits of other identifiers, in place: `{ type: Inherit, traits: [text.base] }`.
///
/// The resolver flattens `Inherit` when a spec is read, so a provider never applies it; cycles
/// and unknown identifiers are errors in the spec.
public struct Inherit: Trait {
    /// `Inherit`.
    public static let typeName = "Inherit"
    /// The identifiers whose traits are brought in, in order.
    public var traits: [String]

    /// Creates the trait.
    public init(traits: [String]) { self.traits = traits }

    /// Changes nothing: by the time a spec is applied, its `Inherit`s have been replaced by
    /// the traits they name.
    public func apply(to target: AnyObject) throws -> Reversal<AnyObject> {
        .none
    }
}
