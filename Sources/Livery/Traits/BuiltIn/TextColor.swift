/// Sets a target's text colour: `{ type: TextColor, color: "#1C1C1E" }`.
public struct TextColor: PropertyTrait {
    /// Applies to a ``HasTextColor``.
    public typealias Target = any HasTextColor
    /// `TextColor`.
    public static let typeName = "TextColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// `color` sets ``HasTextColor/textColor``.
    /// In CSS, `color`.
    public static let properties = [
        TraitProperty("color", \Self.color, css: { [CSSDeclaration("color", .color($0))] }) {
            func binding(_ target: (some HasTextColor).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.textColor, &$1)
                } assign: {
                    $0.textColor = $1
                }
            }
            return ($0 as? any HasTextColor.Type).map { binding($0) }
        }
    ]
}
