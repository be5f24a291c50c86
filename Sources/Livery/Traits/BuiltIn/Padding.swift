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
    public static let properties = [
        TraitProperty("insets", \Self.insets) {
            ($0 as? any HasPadding.Type)?.binding {
                swap(&$0.padding, &$1)
            } assign: {
                $0.padding = $1
            }
        }
    ]
}
