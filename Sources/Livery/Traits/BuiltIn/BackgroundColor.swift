/// Sets a target's background colour: `{ type: BackgroundColor, color: "#FF0000" }`.
public struct BackgroundColor: Trait {
    /// `BackgroundColor`.
    public static let typeName = "BackgroundColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// Sets the colour; the reversal puts the old one back.
    public func apply(to target: any HasBackgroundColor) throws -> Reversal<any HasBackgroundColor> {
        let old = target.backgroundColor
        target.backgroundColor = color
        return Reversal { $0.backgroundColor = old }
    }
}
