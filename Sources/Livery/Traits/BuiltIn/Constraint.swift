/// Sets a tunable constant, such as a layout constraint's: `{ type: Constraint, constant: 12 }`.
public struct Constraint: PropertyTrait {
    /// Applies to a ``HasConstant``.
    public typealias Target = any HasConstant
    /// `Constraint`.
    public static let typeName = "Constraint"
    /// The constant to set.
    public var constant: Double

    /// Creates the trait.
    public init(constant: Double) { self.constant = constant }

    /// `constant` sets ``HasConstant/constant``.
    /// In CSS, the custom property `--constant` (CSS has no layout constant; a page reads it with
    /// `var(--constant)`).
    public static let properties = [
        TraitProperty("constant", \Self.constant, css: { [.custom("constant", .number($0))] }) {
            func binding(_ target: (some HasConstant).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.constant, &$1)
                } assign: {
                    $0.constant = $1
                }
            }
            return ($0 as? any HasConstant.Type).map { binding($0) }
        }
    ]
}
