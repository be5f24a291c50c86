/// Sets a target's inner spacing: `{ type: Padding, insets: { top: 8, left: 12, bottom: 8, right: 12 } }`
/// (or `insets: 8` for all four edges, or `insets: [8, 12, 8, 12]`).
public struct Padding: PropertyTrait {
    /// Applies to a ``HasPadding``.
    public typealias Target = any HasPadding
    /// `Padding`.
    public static let typeName = "Padding"
    /// The insets to set.
    public var insets: Insets

    /// Creates the trait.
    public init(insets: Insets) { self.insets = insets }

    /// `insets` sets ``HasPadding/padding``.
    /// In CSS, `padding` in CSS's order (top, right, bottom, left) where Livery's is top, left, bottom,
    /// right.
    public static let properties = [
        TraitProperty(
            "insets", \Self.insets,
            css: {
                [
                    CSSDeclaration(
                        "padding", .list([.pixels($0.top), .pixels($0.right), .pixels($0.bottom), .pixels($0.left)]))
                ]
            }
        ) {
            func binding(_ target: (some HasPadding).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.padding, &$1)
                } assign: {
                    $0.padding = $1
                }
            }
            return ($0 as? any HasPadding.Type).map { binding($0) }
        }
    ]
}
