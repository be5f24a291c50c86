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
    public static let properties = [
        TraitProperty("color", \Self.color) {
            ($0 as? any HasBorder.Type)?.binding {
                swap(&$0.borderColor, &$1)
            } assign: {
                $0.borderColor = $1
            }
        },
        TraitProperty("width", \Self.width, check: .atLeast(0)) {
            ($0 as? any HasBorder.Type)?.binding {
                swap(&$0.borderWidth, &$1)
            } assign: {
                $0.borderWidth = $1
            }
        },
    ]
}

extension Border: CSSTrait {
    /// `border-color`, and with a width `border-width` and `border-style: solid`. Without a
    /// width the style is left alone: CSS's default width is 3px once a style is set, where a
    /// target's is 0.
    public var cssDeclarations: [CSSDeclaration] {
        var declarations: [CSSDeclaration] = []
        if let color { declarations.append(CSSDeclaration("border-color", .color(color))) }
        if let width {
            declarations.append(CSSDeclaration("border-width", .pixels(width)))
            declarations.append(CSSDeclaration("border-style", .keyword("solid")))
        }
        return declarations
    }
}
