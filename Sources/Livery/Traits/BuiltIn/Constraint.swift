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
        let old = Self.exchange(target, constant)
        return Reversal { Self.assign($0, old) }
    }
}

extension Constraint: PropertyTrait {
    var setting: PropertyValue { constant.propertyValue }

    /// Sets `target`'s constant and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasConstant>(_ target: Target, _ constant: Double) -> Double {
        var value = constant
        swap(&target.constant, &value)
        return value
    }

    /// Sets `target`'s constant to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasConstant>(_ target: Target, _ constant: Double) {
        target.constant = constant
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasConstant.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasConstant>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Double(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Double(setting).map { assign(target, $0) } })
    }
}

extension Constraint: CSSTrait {
    /// The custom property `--constant`: CSS has no layout constant, a page reads it with
    /// `var(--constant)`.
    public var cssDeclarations: [CSSDeclaration] { [.custom("constant", .number(constant))] }
}
