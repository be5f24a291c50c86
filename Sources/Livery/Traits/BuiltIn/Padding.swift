/// Sets a target's inner spacing: `{ type: Padding, insets: { top: 8, left: 12, bottom: 8, right: 12 } }`
/// (or `insets: 8` for all four edges, or `insets: [8, 12, 8, 12]`).
public struct Padding: Trait {
    /// `Padding`.
    public static let typeName = "Padding"
    /// The insets to set.
    public var insets: Insets

    /// Creates the trait.
    public init(insets: Insets) { self.insets = insets }

    /// Sets the padding; the reversal puts the old one back.
    public func apply(to target: any HasPadding) throws -> Reversal<any HasPadding> {
        let old = target.padding
        target.padding = insets
        return Reversal { $0.padding = old }
    }
}
