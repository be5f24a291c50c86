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
    public static let properties = [
        TraitProperty("constant", \Self.constant) {
            ($0 as? any HasConstant.Type)?.binding {
                swap(&$0.constant, &$1)
            } assign: {
                $0.constant = $1
            }
        }
    ]
}
