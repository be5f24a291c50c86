/// Sets a target's border: `{ type: Border, color: "#D1D1D6", width: 1 }`. A missing field
/// leaves that part of the border as it is.
public struct Border: PropertyTrait {
    /// Applies to a ``HasBorder``.
    public typealias Target = any HasBorder
    /// `Border`.
    public static let typeName = "Border"
    /// The border colour, or nil to leave it.
    public var color: Color?
    /// The border width (at least 0), or nil to leave it.
    public var width: Double?

    /// Creates the trait.
    public init(color: Color? = nil, width: Double? = nil) {
        self.color = color
        self.width = width
    }

    /// `color` sets ``HasBorder/borderColor``, `width` (at least 0) ``HasBorder/borderWidth``.
    /// In CSS, `border-color`, and `border-width` with `border-style: solid`. Without a width the
    /// style is left alone: CSS's default width is 3px once a style is set, where a target's is 0.
    public static let properties = [
        TraitProperty("color", \Self.color, css: { [CSSDeclaration("border-color", .color($0))] }) {
            func binding(_ target: (some HasBorder).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.borderColor, &$1)
                } assign: {
                    $0.borderColor = $1
                }
            }
            return ($0 as? any HasBorder.Type).map { binding($0) }
        },
        TraitProperty(
            "width", \Self.width, check: .atLeast(0),
            css: { [CSSDeclaration("border-width", .pixels($0)), CSSDeclaration("border-style", .keyword("solid"))] }
        ) {
            func binding(_ target: (some HasBorder).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.borderWidth, &$1)
                } assign: {
                    $0.borderWidth = $1
                }
            }
            return ($0 as? any HasBorder.Type).map { binding($0) }
        },
    ]
}
