/// Sets a target's opacity: `{ type: Opacity, opacity: 0.8 }`.
public struct Opacity: PropertyTrait {
    /// Applies to a ``HasOpacity``.
    public typealias Target = any HasOpacity
    /// `Opacity`.
    public static let typeName = "Opacity"
    /// The opacity, 0…1.
    public var opacity: Double

    /// Creates the trait.
    public init(opacity: Double) { self.opacity = opacity }

    /// `opacity` (0…1) sets ``HasOpacity/opacity``.
    /// In CSS, `opacity`.
    public static let properties = [
        TraitProperty(
            "opacity", \Self.opacity, check: .within(0...1), css: { [CSSDeclaration("opacity", .number($0))] }
        ) {
            func binding(_ target: (some HasOpacity).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.opacity, &$1)
                } assign: {
                    $0.opacity = $1
                }
            }
            return ($0 as? any HasOpacity.Type).map { binding($0) }
        }
    ]
}
