/// Sets a target's text colour: `{ type: TextColor, color: "#1C1C1E" }`.
public struct TextColor: Trait {
    /// `TextColor`.
    public static let typeName = "TextColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// Sets the colour; the reversal puts the old one back.
    public func apply(to target: any HasTextColor) throws -> Reversal<any HasTextColor> {
        let old = Self.exchange(target, color)
        return Reversal { Self.assign($0, old) }
    }
}

extension TextColor: PropertyTrait {
    var setting: PropertyValue { color.propertyValue }

    /// Sets `target`'s text colour and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasTextColor>(_ target: Target, _ color: Color) -> Color {
        var value = color
        swap(&target.textColor, &value)
        return value
    }

    /// Sets `target`'s textColor to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasTextColor>(_ target: Target, _ color: Color) {
        target.textColor = color
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasTextColor.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasTextColor>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Color(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Color(setting).map { assign(target, $0) } })
    }
}

extension TextColor: CSSTrait {
    /// `color`.
    public var cssDeclarations: [CSSDeclaration] { [CSSDeclaration("color", .color(color))] }
}
