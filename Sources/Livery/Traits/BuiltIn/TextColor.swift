/// Sets a target's text colour: `{ type: TextColor, color: "#1C1C1E" }`.
public struct TextColor: Trait {
    /// `TextColor`.
    public static let typeName = "TextColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// Sets the colour; the reversal puts the old one back.
    public func apply(to target: any HasTextColor) throws -> Reversal<any HasTextColor> {
        let old = target.textColor
        target.textColor = color
        return Reversal { $0.textColor = old }
    }
}
