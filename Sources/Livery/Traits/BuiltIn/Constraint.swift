/// Sets a tunable constant, such as a layout constraint's: `{ type: Constraint, constant: 12 }`.
public struct Constraint: Trait {
    /// `Constraint`.
    public static let typeName = "Constraint"
    /// The constant to set.
    public var constant: Double

    /// Creates the trait.
    public init(constant: Double) { self.constant = constant }

    /// Sets the constant; the reversal puts the old one back.
    public func apply(to target: any HasConstant) throws -> Reversal<any HasConstant> {
        let old = target.constant
        target.constant = constant
        return Reversal { $0.constant = old }
    }
}
