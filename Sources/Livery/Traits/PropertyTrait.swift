/// A built-in trait that sets one property of its target and whose reversal is the value it
/// replaced.
///
/// The provider applies such a trait through a ``PropertyBinding`` found once per (trait type,
/// target class), and keeps the replaced value inline in the target's undo list: no dynamic
/// cast to the capability protocol per apply or per revert, and no closure per applied trait.
/// The trait's public `apply(to:)` calls the same `exchange` function the binding does, so the
/// two paths cannot differ in what they change.
protocol PropertyTrait: Trait {
    /// The value the trait sets, as the provider stores it.
    var setting: PropertyValue { get }

    /// How to set the property on objects of `type`; nil if they lack the capability.
    static func binding(for type: AnyClass) -> PropertyBinding?
}

/// A value a ``PropertyTrait`` sets or saves, held inline in a target's undo list.
enum PropertyValue: Sendable, Equatable {
    case number(Double)
    case color(Color)
    case insets(Insets)
    case flag(Bool)
}

/// A property type whose values a ``PropertyValue`` holds.
protocol PropertyValueConvertible {
    /// The value held by `value`; nil if it holds another type.
    init?(_ value: PropertyValue)
    /// The value, as a ``PropertyValue``.
    var propertyValue: PropertyValue { get }
}

extension Double: PropertyValueConvertible {
    init?(_ value: PropertyValue) {
        guard case .number(let number) = value else { return nil }
        self = number
    }
    var propertyValue: PropertyValue { .number(self) }
}

extension Color: PropertyValueConvertible {
    init?(_ value: PropertyValue) {
        guard case .color(let color) = value else { return nil }
        self = color
    }
    var propertyValue: PropertyValue { .color(self) }
}

extension Insets: PropertyValueConvertible {
    init?(_ value: PropertyValue) {
        guard case .insets(let insets) = value else { return nil }
        self = insets
    }
    var propertyValue: PropertyValue { .insets(self) }
}

extension Bool: PropertyValueConvertible {
    init?(_ value: PropertyValue) {
        guard case .flag(let flag) = value else { return nil }
        self = flag
    }
    var propertyValue: PropertyValue { .flag(self) }
}
