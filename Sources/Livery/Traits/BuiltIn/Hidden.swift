/// Hides or shows a target: `{ type: Hidden, hidden: true }`.
public struct Hidden: Trait {
    /// `Hidden`.
    public static let typeName = "Hidden"
    /// Whether the target is hidden.
    public var hidden: Bool

    /// Creates the trait.
    public init(hidden: Bool) { self.hidden = hidden }

    /// Sets the flag; the reversal puts the old one back.
    public func apply(to target: any HasHidden) throws -> Reversal<any HasHidden> {
        let old = Self.exchange(target, hidden)
        return Reversal { Self.assign($0, old) }
    }
}

extension Hidden: PropertyTrait {
    var setting: PropertyValue { hidden.propertyValue }

    /// Sets `target`'s hidden flag and returns the one it replaced: the rule both `apply(to:)` and
    /// the provider's binding follow. One `swap` is one access to the property, where a read and
    /// a write would be two, each checked for exclusivity.
    static func exchange<Target: HasHidden>(_ target: Target, _ hidden: Bool) -> Bool {
        var value = hidden
        swap(&target.isHidden, &value)
        return value
    }

    /// Sets `target`'s isHidden to a value `exchange` replaced: how the reversal puts it back, one
    /// write where an exchange is a read and a write.
    static func assign<Target: HasHidden>(_ target: Target, _ hidden: Bool) {
        target.isHidden = hidden
    }

    static func binding(for type: AnyClass) -> PropertyBinding? {
        guard let type = type as? any HasHidden.Type else { return nil }
        return binding(type)
    }

    private static func binding<Target: HasHidden>(_ type: Target.Type) -> PropertyBinding {
        PropertyBinding(
            type, exchange: { target, setting in Bool(setting).map { exchange(target, $0).propertyValue } },
            assign: { target, setting in Bool(setting).map { assign(target, $0) } })
    }
}

extension Hidden: CSSTrait {
    /// `display: none` when hidden; nothing when not, so the element keeps the display the
    /// page gives it.
    public var cssDeclarations: [CSSDeclaration] { hidden ? [CSSDeclaration("display", .keyword("none"))] : [] }
}
