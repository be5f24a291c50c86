/// Rounds a target's corners: `{ type: CornerRadius, radius: 8 }`.
public struct CornerRadius: PropertyTrait {
    /// Applies to a ``HasCornerRadius``.
    public typealias Target = any HasCornerRadius
    /// `CornerRadius`.
    public static let typeName = "CornerRadius"
    /// The radius, at least 0.
    public var radius: Double

    /// Creates the trait.
    public init(radius: Double) { self.radius = radius }

    /// `radius` (at least 0) sets ``HasCornerRadius/cornerRadius``.
    /// In CSS, `border-radius` in pixels.
    public static let properties = [
        TraitProperty(
            "radius", \Self.radius, check: .atLeast(0), css: { [CSSDeclaration("border-radius", .pixels($0))] }
        ) {
            func binding(_ target: (some HasCornerRadius).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.cornerRadius, &$1)
                } assign: {
                    $0.cornerRadius = $1
                }
            }
            return ($0 as? any HasCornerRadius.Type).map { binding($0) }
        }
    ]
}
