/// Hides or shows a target: `{ type: Hidden, hidden: true }`.
public struct Hidden: PropertyTrait {
    /// Applies to a ``HasHidden``.
    public typealias Target = any HasHidden
    /// `Hidden`.
    public static let typeName = "Hidden"
    /// Whether the target is hidden.
    public var hidden: Bool

    /// Creates the trait.
    public init(hidden: Bool) { self.hidden = hidden }

    /// `hidden` sets ``HasHidden/isHidden``.
    /// In CSS, `display: none` when hidden, and nothing when not, so the element keeps the display the page
    /// gives it.
    public static let properties = [
        TraitProperty("hidden", \Self.hidden, css: { $0 ? [CSSDeclaration("display", .keyword("none"))] : [] }) {
            func binding(_ target: (some HasHidden).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.isHidden, &$1)
                } assign: {
                    $0.isHidden = $1
                }
            }
            return ($0 as? any HasHidden.Type).map { binding($0) }
        }
    ]
}
