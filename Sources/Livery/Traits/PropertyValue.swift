/// A value a ``PropertyTrait`` sets or saves, as the provider keeps it inline in a target's undo
/// records: no allocation per applied property.
public enum PropertyValue: Sendable, Equatable {
    /// A number.
    case number(Double)
    /// A whole number: an `Int` property's value, or a `Set` value the spec wrote as an integer,
    /// which a `Double` property also takes, as a spec read does.
    case integer(Int)
    /// A colour.
    case color(Color)
    /// Four edge insets.
    case insets(Insets)
    /// A flag.
    case flag(Bool)
    /// A size or an offset.
    case size(Size)
    /// A text, such as a font name.
    case text(String)
    /// A font weight.
    case weight(FontWeight)

    /// A case without its value: what decides whether a ``PropertyBinding`` takes a value.
    enum Kind: Hashable, Sendable {
        case number, integer, color, insets, flag, size, text, weight
    }

    /// The value's case.
    var kind: Kind {
        switch self {
        case .number: .number
        case .integer: .integer
        case .color: .color
        case .insets: .insets
        case .flag: .flag
        case .size: .size
        case .text: .text
        case .weight: .weight
        }
    }
}

/// A property type a ``PropertyTrait`` can set: one a ``PropertyValue`` holds.
///
/// Each type makes its own bindings, where its type is known: a binding written once over a
/// generic value type handles the value through its type's metadata on every call, which costs
/// several times the property's own accessors (Benchmarks/README.md, figure 4).
public protocol PropertyValueConvertible: Sendable {
    /// The value, as a ``PropertyValue``.
    var propertyValue: PropertyValue { get }

    /// Binds a property of `Target` to objects of exactly the class `type` (`Target` or a
    /// subclass of it): `exchange` swaps the property with the value it is given, `assign` sets
    /// the property to it (see ``TraitTarget/binding(_:assign:)``).
    static func binding<Target: AnyObject>(
        exactly type: AnyClass, as target: Target.Type, exchange: @escaping (Target, inout Self) -> Void,
        assign: @escaping (Target, inout Self) -> Void
    ) -> PropertyBinding
}

extension Double: PropertyValueConvertible {
    /// `.number(self)`.
    public var propertyValue: PropertyValue { .number(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.number` and
    /// `.integer` values (a `Set` value the spec wrote as an integer, which a load may assign in
    /// place of the number it replaced).
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Double) -> Void,
        assign: @escaping (Target, inout Double) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.number, .integer],
            exchange: { object, setting in
                guard var value = setting.pointee.flatMap(number) else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .number(value)
            },
            assign: { object, setting in
                guard var value = number(setting) else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }

    /// The number `value` gives a `Double` property: a number, or a whole number converted.
    private static func number(_ value: PropertyValue) -> Double? {
        switch value {
        case .number(let number): number
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

extension Int: PropertyValueConvertible {
    /// `.integer(self)`.
    public var propertyValue: PropertyValue { .integer(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.integer` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Int) -> Void,
        assign: @escaping (Target, inout Int) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.integer],
            exchange: { object, setting in
                guard case .integer(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .integer(value)
            },
            assign: { object, setting in
                guard case .integer(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension Color: PropertyValueConvertible {
    /// `.color(self)`.
    public var propertyValue: PropertyValue { .color(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.color` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Color) -> Void,
        assign: @escaping (Target, inout Color) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.color],
            exchange: { object, setting in
                guard case .color(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .color(value)
            },
            assign: { object, setting in
                guard case .color(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension Insets: PropertyValueConvertible {
    /// `.insets(self)`.
    public var propertyValue: PropertyValue { .insets(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.insets` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Insets) -> Void,
        assign: @escaping (Target, inout Insets) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.insets],
            exchange: { object, setting in
                guard case .insets(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .insets(value)
            },
            assign: { object, setting in
                guard case .insets(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension Bool: PropertyValueConvertible {
    /// `.flag(self)`.
    public var propertyValue: PropertyValue { .flag(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.flag` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Bool) -> Void,
        assign: @escaping (Target, inout Bool) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.flag],
            exchange: { object, setting in
                guard case .flag(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .flag(value)
            },
            assign: { object, setting in
                guard case .flag(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension Size: PropertyValueConvertible {
    /// `.size(self)`.
    public var propertyValue: PropertyValue { .size(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.size` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout Size) -> Void,
        assign: @escaping (Target, inout Size) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.size],
            exchange: { object, setting in
                guard case .size(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .size(value)
            },
            assign: { object, setting in
                guard case .size(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension String: PropertyValueConvertible {
    /// `.text(self)`.
    public var propertyValue: PropertyValue { .text(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.text` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout String) -> Void,
        assign: @escaping (Target, inout String) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.text],
            exchange: { object, setting in
                guard case .text(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .text(value)
            },
            assign: { object, setting in
                guard case .text(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension FontWeight: PropertyValueConvertible {
    /// `.weight(self)`.
    public var propertyValue: PropertyValue { .weight(self) }

    /// Binds `exchange` and `assign` to objects of exactly `type`; they are given `.weight` values only.
    public static func binding<Target: AnyObject>(
        exactly type: AnyClass, as _: Target.Type, exchange: @escaping (Target, inout FontWeight) -> Void,
        assign: @escaping (Target, inout FontWeight) -> Void
    ) -> PropertyBinding {
        PropertyBinding(
            exactly: type, takes: [.weight],
            exchange: { object, setting in
                guard case .weight(var value)? = setting.pointee else { return nil }
                exchange(unsafeDowncast(object, to: Target.self), &value)
                return .weight(value)
            },
            assign: { object, setting in
                guard case .weight(var value) = setting else { return }
                assign(unsafeDowncast(object, to: Target.self), &value)
            })
    }
}

extension PropertyValueConvertible {
    /// A binding through the closures `exchange` and `assign` of a property of `Root`, for
    /// objects of exactly `type`, if they are `Root`s: how a property a program declares on a
    /// class of its own (``TraitProperty``, ``Tweak``) is set on the fast path.
    static func binding<Root: AnyObject>(
        exactly type: AnyClass, on _: Root.Type, exchange: @escaping (Root, inout Self) -> Void,
        assign: @escaping (Root, inout Self) -> Void
    ) -> PropertyBinding? {
        guard type is Root.Type else { return nil }
        return binding(exactly: type, as: Root.self, exchange: exchange, assign: assign)
    }

    /// A binding through `property` for objects of exactly `type`, if they are `Root`s.
    ///
    /// Each access is the runtime's key path projection, generic over the root and value types:
    /// about seven times the instructions of the closures above (Benchmarks/README.md, figure 4).
    static func binding<Root: AnyObject>(
        exactly type: AnyClass, through property: any ReferenceWritableKeyPath<Root, Self> & Sendable
    ) -> PropertyBinding? {
        binding(exactly: type, on: Root.self) {
            swap(&$0[keyPath: property], &$1)
        } assign: {
            $0[keyPath: property] = $1
        }
    }
}
