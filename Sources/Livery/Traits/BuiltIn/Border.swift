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
