/// Rounds a target's corners: `{ type: CornerRadius, radius: 8 }`.
public struct CornerRadius: Trait {
    /// `CornerRadius`.
    public static let typeName = "CornerRadius"
    /// The radius, at least 0.
    public var radius: Double

    /// Creates the trait.
    public init(radius: Double) { self.radius = radius }

    /// Decodes the trait, refusing a negative radius.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        radius = try container.decode(Double.self, forKey: .radius)
        try Check.atLeastZero(radius, .radius, in: container)
    }

    /// Sets the radius; the reversal puts the old one back.
    public func apply(to target: any HasCornerRadius) throws -> Reversal<any HasCornerRadius> {
        let old = Self.exchange(target, radius)
        return Reversal { Self.assign($0, old) }
    }
}

extension CornerRadius: PropertyTrait {
    var setting: PropertyValue { radius.propertyValue }

    /// Sets `target`'s radius and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasCornerRadius>(_ target: Target, _ radius: Double) -> Double {
        var value = radius
        swap(&target.cornerRadius, &value)
        return value
    }

    /// Sets `target`'s cornerRadius to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasCornerRadius>(_ target: Target, _ radius: Double) {
        target.cornerRadius = radius
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasCornerRadius.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasCornerRadius>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Double(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Double(setting).map { assign(target, $0) } })
    }
}

extension CornerRadius: CSSTrait {
    /// `border-radius` in pixels.
    public var cssDeclarations: [CSSDeclaration] { [CSSDeclaration("border-radius", .pixels(radius))] }
}
