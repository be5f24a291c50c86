/// Sets a target's inner spacing: `{ type: Padding, insets: { top: 8, left: 12, bottom: 8, right: 12 } }`
/// (or `insets: 8` for all four edges, or `insets: [8, 12, 8, 12]`).
public struct Padding: Trait {
    /// `Padding`.
    public static let typeName = "Padding"
    /// The insets to set.
    public var insets: Insets

    /// Creates the trait.
    public init(insets: Insets) { self.insets = insets }

    /// Sets the padding; the reversal puts the old one back.
    public func apply(to target: any HasPadding) throws -> Reversal<any HasPadding> {
        let old = Self.exchange(target, insets)
        return Reversal { Self.assign($0, old) }
    }
}

extension Padding: PropertyTrait {
    var setting: PropertyValue { insets.propertyValue }

    /// Sets `target`'s padding and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasPadding>(_ target: Target, _ insets: Insets) -> Insets {
        var value = insets
        swap(&target.padding, &value)
        return value
    }

    /// Sets `target`'s padding to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasPadding>(_ target: Target, _ insets: Insets) {
        target.padding = insets
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasPadding.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasPadding>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Insets(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Insets(setting).map { assign(target, $0) } })
    }
}

extension Padding: CSSTrait {
    /// `padding`, in CSS's order (top, right, bottom, left) where Livery's is top, left,
    /// bottom, right.
    public var cssDeclarations: [CSSDeclaration] {
        [
            CSSDeclaration(
                "padding",
                .list([.pixels(insets.top), .pixels(insets.right), .pixels(insets.bottom), .pixels(insets.left)]))
        ]
    }
}
