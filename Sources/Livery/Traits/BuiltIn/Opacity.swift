/// Sets a target's opacity: `{ type: Opacity, opacity: 0.8 }`.
public struct Opacity: Trait {
    /// `Opacity`.
    public static let typeName = "Opacity"
    /// The opacity, 0…1.
    public var opacity: Double

    /// Creates the trait.
    public init(opacity: Double) { self.opacity = opacity }

    /// Decodes the trait, refusing an opacity outside 0…1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        opacity = try container.decode(Double.self, forKey: .opacity)
        try Check.unitInterval(opacity, .opacity, in: container)
    }

    /// Sets the opacity; the reversal puts the old one back.
    public func apply(to target: any HasOpacity) throws -> Reversal<any HasOpacity> {
        let old = Self.exchange(target, opacity)
        return Reversal { Self.assign($0, old) }
    }
}

extension Opacity: PropertyTrait {
    var setting: PropertyValue { opacity.propertyValue }

    /// Sets `target`'s opacity and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasOpacity>(_ target: Target, _ opacity: Double) -> Double {
        var value = opacity
        swap(&target.opacity, &value)
        return value
    }

    /// Sets `target`'s opacity to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasOpacity>(_ target: Target, _ opacity: Double) {
        target.opacity = opacity
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasOpacity.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasOpacity>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Double(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Double(setting).map { assign(target, $0) } })
    }
}

extension Opacity: CSSTrait {
    /// `opacity`.
    public var cssDeclarations: [CSSDeclaration] { [CSSDeclaration("opacity", .number(opacity))] }
}
