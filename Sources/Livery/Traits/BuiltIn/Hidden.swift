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
    public static let properties = [
        TraitProperty("hidden", \Self.hidden) {
            ($0 as? any HasHidden.Type)?.binding {
                swap(&$0.isHidden, &$1)
            } assign: {
                $0.isHidden = $1
            }
        }
    ]
}
