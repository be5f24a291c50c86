/// Sets a target's background colour: `{ type: BackgroundColor, color: "#FF0000" }`.
public struct BackgroundColor: Trait {
    /// `BackgroundColor`.
    public static let typeName = "BackgroundColor"
    /// The colour to set.
    public var color: Color

    /// Creates the trait.
    public init(color: Color) { self.color = color }

    /// Sets the colour; the reversal puts the old one back.
    public func apply(to target: any HasBackgroundColor) throws -> Reversal<any HasBackgroundColor> {
        let old = Self.exchange(target, color)
        return Reversal { Self.assign($0, old) }
    }
}

extension BackgroundColor: PropertyTrait {
    var setting: PropertyValue { color.propertyValue }

    /// Sets `target`'s background colour and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasBackgroundColor>(_ target: Target, _ color: Color) -> Color {
        var value = color
        swap(&target.backgroundColor, &value)
        return value
    }

    /// Sets `target`'s backgroundColor to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasBackgroundColor>(_ target: Target, _ color: Color) {
        target.backgroundColor = color
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasBackgroundColor.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasBackgroundColor>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Color(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Color(setting).map { assign(target, $0) } })
    }
}

extension BackgroundColor: CSSTrait {
    /// `background-color`.
    public var cssDeclarations: [CSSDeclaration] { [CSSDeclaration("background-color", .color(color))] }
}
