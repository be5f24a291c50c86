/// Sets a target's background colour: `{ type: BackgroundColor, color: "#FF0000" }`.
public struct BackgroundColor: PropertyTrait {
    /// Applies to a ``HasBackgroundColor``.
    public typealias Target = any HasBackgroundColor
    /// `BackgroundColor`.
    public static let typeName = "BackgroundColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// `color` sets ``HasBackgroundColor/backgroundColor``.
    /// In CSS, `background-color`.
    public static let properties = [
        TraitProperty("color", \Self.color, css: { [CSSDeclaration("background-color", .color($0))] }) {
            func binding(_ target: (some HasBackgroundColor).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.backgroundColor, &$1)
                } assign: {
                    $0.backgroundColor = $1
                }
            }
            return ($0 as? any HasBackgroundColor.Type).map { binding($0) }
        }
    ]
}
