/// One property a ``PropertyTrait`` sets: the trait's field that holds the value, the check the
/// value must pass, and how the property is reached on a target's class.
///
/// ```swift
/// TraitProperty(
///     "radius", \CornerRadius.radius, check: .atLeast(0),
///     css: { [CSSDeclaration("border-radius", .pixels($0))] }
/// ) {
///     func binding(_ target: (some HasCornerRadius).Type) -> PropertyBinding {
///         target.binding { swap(&$0.cornerRadius, &$1) } assign: { $0.cornerRadius = $1 }
///     }
///     return ($0 as? any HasCornerRadius.Type).map { binding($0) }
/// }
/// ```
///
/// Everything Livery knows about a built-in property trait comes from its properties: its
/// `apply(to:)` and reversal, the provider's fast path, the checks where a spec is read, its
/// entry in the JSON Schema, the fields Livery Studio shows (`GET /v1/traits`) and its CSS form
/// (`GET /v1/css`, ``Spec/styleSheet(theme:)``).
public struct TraitProperty<Owner: Trait>: Sendable {
    /// The trait's field, as specs write it.
    public let field: String
    /// What the field's value must satisfy, checked where a spec is read.
    public let check: ValueCheck?
    /// The trait's stored property that holds the value, which names the field in code
    /// (``PropertyTrait/field(_:)``).
    let value: any AnyKeyPath & Sendable
    /// The value the trait sets; nil where the field is left out, which leaves the property as it is.
    let setting: @Sendable (Owner) -> PropertyValue?
    /// How to set the property on objects of exactly `class`; nil where the class lacks it.
    let binding: @Sendable (_ class: AnyClass) -> PropertyBinding?
    /// The CSS declarations of the value the trait holds (none where the field is left out);
    /// nil when the property has no CSS form, which the stylesheet then names.
    let css: (@Sendable (Owner) -> [CSSDeclaration])?
    /// Writes the field's value read from its node (nil where the key is missing) into a trait,
    /// and gives what the trait then sets (``FieldRead``), so that a trait read by its declaration
    /// needs no key path read for its settings; `.invalid` where the node is not a plain valid
    /// value, which only the general decode reports. Nil where the value's type or the key path
    /// allows no such read (``DeclarationDecodable``).
    let read: (@Sendable (inout Owner, SpecNode?) -> FieldRead)?

    /// A property set from the field `field`, always given.
    ///
    /// - Parameters:
    ///   - field: the field's name in specs, the name of the trait's stored property.
    ///   - value: the trait's stored property.
    ///   - check: what the value must satisfy.
    ///   - css: the value's CSS declarations on an element; nil for no CSS form.
    ///   - binding: how to set the property on objects of a class; nil where the class lacks it.
    public init<Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value> & Sendable, check: ValueCheck? = nil,
        css: (@Sendable (Value) -> [CSSDeclaration])? = nil,
        binding: @escaping @Sendable (AnyClass) -> PropertyBinding?
    ) {
        self.field = field
        self.check = check
        self.value = value
        self.setting = { $0[keyPath: value].propertyValue }
        self.binding = binding
        self.read = Self.required(value)
        if let css {
            self.css = { @Sendable owner in css(owner[keyPath: value]) }
        } else {
            self.css = nil
        }
    }

    /// A property set from the optional field `field`; left as it is where the field is nil.
    public init<Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value?> & Sendable, check: ValueCheck? = nil,
        css: (@Sendable (Value) -> [CSSDeclaration])? = nil,
        binding: @escaping @Sendable (AnyClass) -> PropertyBinding?
    ) {
        self.field = field
        self.check = check
        self.value = value
        self.setting = { $0[keyPath: value]?.propertyValue }
        self.binding = binding
        self.read = Self.optional(value)
        if let css {
            self.css = { @Sendable owner in owner[keyPath: value].map(css) ?? [] }
        } else {
            self.css = nil
        }
    }

    /// A property set from the optional field `field` whose CSS form needs the whole trait: one
    /// CSS value that several fields make together, as `DropShadow`'s `box-shadow`. `cssOfTrait`
    /// is given the trait whether or not this field is set; the other fields it draws declare
    /// `css: { _ in [] }`, so the trait's CSS form is still written in its properties alone.
    public init<Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value?> & Sendable, check: ValueCheck? = nil,
        cssOfTrait: @escaping @Sendable (Owner) -> [CSSDeclaration],
        binding: @escaping @Sendable (AnyClass) -> PropertyBinding?
    ) {
        self.field = field
        self.check = check
        self.value = value
        self.setting = { $0[keyPath: value]?.propertyValue }
        self.binding = binding
        self.read = Self.optional(value)
        self.css = cssOfTrait
    }

    /// A property of the trait's `Target` class reached through two closures, one that swaps the
    /// property with the value it is given (how the trait applies) and one that sets it (how it
    /// is undone):
    ///
    /// ```swift
    /// TraitProperty("interval", \Blink.interval) { swap(&$0.blinkInterval, &$1) } assign: { $0.blinkInterval = $1 }
    /// ```
    ///
    /// The provider applies it on its fast path at the cost of the property's own accessors, as
    /// it does the built-in traits' properties; subclasses of `Target` take it too.
    public init<Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value> & Sendable, check: ValueCheck? = nil,
        exchange: @escaping @Sendable (Owner.Target, inout Value) -> Void,
        assign: @escaping @Sendable (Owner.Target, inout Value) -> Void
    ) where Owner.Target: AnyObject {
        self.init(field, value, check: check) {
            Value.binding(exactly: $0, on: Owner.Target.self, exchange: exchange, assign: assign)
        }
    }

    /// A property of the trait's `Target` class reached through two closures, set from the
    /// optional field `field`; left as it is where the field is nil.
    public init<Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value?> & Sendable, check: ValueCheck? = nil,
        exchange: @escaping @Sendable (Owner.Target, inout Value) -> Void,
        assign: @escaping @Sendable (Owner.Target, inout Value) -> Void
    ) where Owner.Target: AnyObject {
        self.init(field, value, check: check) {
            Value.binding(exactly: $0, on: Owner.Target.self, exchange: exchange, assign: assign)
        }
    }

    /// A property of the class `Root` reached through a key path, for a trait whose `Target` is a
    /// class: `TraitProperty("interval", \Blink.interval, sets: \Cursor.blinkInterval)`.
    ///
    /// The provider applies it on its fast path like any binding, but each access is the
    /// runtime's key path projection: about seven times the instructions of the same property
    /// declared with `exchange:` and `assign:` closures (Benchmarks/README.md, figure 4).
    public init<Root: AnyObject, Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value> & Sendable, check: ValueCheck? = nil,
        sets property: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) {
        self.init(field, value, check: check) { Value.binding(exactly: $0, through: property) }
    }

    /// A property of the class `Root` reached through a key path, set from the optional field
    /// `field`; left as it is where the field is nil.
    public init<Root: AnyObject, Value: PropertyValueConvertible>(
        _ field: String, _ value: any KeyPath<Owner, Value?> & Sendable, check: ValueCheck? = nil,
        sets property: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) {
        self.init(field, value, check: check) { Value.binding(exactly: $0, through: property) }
    }
}

extension TraitProperty {
    /// The read of a field that must be given.
    private static func required<Value>(
        _ value: any KeyPath<Owner, Value> & Sendable
    ) -> (@Sendable (inout Owner, SpecNode?) -> FieldRead)? {
        guard let readable = Value.self as? any (NodeReadable & PropertyValueConvertible).Type else { return nil }
        return requiredRead(value, as: readable)
    }

    /// The read of a field that may be left out or null.
    private static func optional<Value>(
        _ value: any KeyPath<Owner, Value?> & Sendable
    ) -> (@Sendable (inout Owner, SpecNode?) -> FieldRead)? {
        guard let readable = Value.self as? any (NodeReadable & PropertyValueConvertible).Type else { return nil }
        return optionalRead(value, as: readable)
    }

    /// ``required(_:)`` once the field's type is known to be readable: the key path is cast
    /// once, here, so that a read casts nothing.
    private static func requiredRead<Field: NodeReadable & PropertyValueConvertible>(
        _ value: AnyKeyPath, as _: Field.Type
    ) -> (@Sendable (inout Owner, SpecNode?) -> FieldRead)? {
        guard let writable = value as? WritableKeyPath<Owner, Field> else { return nil }
        // Immutable, as the Sendable key path it was cast from; only its writable type is not
        // declared Sendable.
        nonisolated(unsafe) let field = writable
        return { owner, node in
            guard let node, let value = Field.read(node) else { return .invalid }
            owner[keyPath: field] = value
            return .setting(value.propertyValue)
        }
    }

    /// ``optional(_:)`` once the field's type is known to be readable.
    private static func optionalRead<Field: NodeReadable & PropertyValueConvertible>(
        _ value: AnyKeyPath, as _: Field.Type
    ) -> (@Sendable (inout Owner, SpecNode?) -> FieldRead)? {
        guard let writable = value as? WritableKeyPath<Owner, Field?> else { return nil }
        // Immutable, as the Sendable key path it was cast from; only its writable type is not
        // declared Sendable.
        nonisolated(unsafe) let field = writable
        return { owner, node in
            guard let node, !node.isNull else {
                // A missing key and null both make the field nil, as `decodeIfPresent` reads them.
                owner[keyPath: field] = nil
                return .setting(nil)
            }
            guard let value = Field.read(node) else { return .invalid }
            owner[keyPath: field] = value
            return .setting(value.propertyValue)
        }
    }
}
