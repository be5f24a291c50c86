/// A registered trait type: how to decode it from a spec entry and apply it to an object
/// whose type is known only at run time.
final class TraitType: Sendable {
    let name: String
    let swiftName: String
    /// What traits of this type apply to, for messages: `HasCornerRadius`.
    let targetDescription: String
    let metatype: any Trait.Type
    /// Applies a trait of this type to `object`; nil if `object` is not the trait's `Target`.
    ///
    /// Made here, where `T` is known, rather than in a generic extension of `Trait`: for the
    /// built-ins (and any `register` the compiler sees with a concrete type) this closure is
    /// specialised, so its casts and the reversal it makes need no generic metadata looked up
    /// at run time, which otherwise costs more than the trait's own work.
    let applyErased: @Sendable (any Trait, AnyObject) throws -> ErasedReversal?
    /// Whether `object` is something traits of this type apply to.
    let canApply: @Sendable (AnyObject) -> Bool
    /// For a ``PropertyTrait``, its properties in order: the provider applies a trait of this
    /// type as that fixed list of bindings. Nil for a trait applied through its own `apply(to:)`.
    private let properties: [Property]?
    /// For a ``NamedPropertyTrait``, how a trait names its properties and how a class binds them.
    private let named: Named?

    /// One property of a ``PropertyTrait``, with the trait's type erased.
    struct Property: Sendable {
        let field: String
        let check: ValueCheck?
        let binding: @Sendable (AnyClass) -> PropertyBinding?
        let setting: @Sendable (any Trait) -> PropertyValue?
    }

    /// For a ``DeclarationDecodable`` trait, its read by its declaration: nil where the entry
    /// is not plainly valid, which the general decode then decodes or reports.
    private let declaredReader: (@Sendable (SpecNode) -> DecodedTrait?)?
    /// How messages name a trait of this type: "trait CornerRadius".
    private let owner: String
    /// The CSS declarations a trait of this type makes (``cssDeclarations(of:)``); nil for a
    /// type with no CSS form.
    private let cssForm: (@Sendable (any Trait) -> [CSSDeclaration])?

    /// A ``NamedPropertyTrait``'s parts, with the trait's type erased.
    struct Named: Sendable {
        let settings: @Sendable (any Trait) -> [(name: String, setting: PropertyValue)]?
        let binding: @Sendable (_ name: String, _ class: AnyClass) -> PropertyBinding?
    }

    init<T: Trait>(_ type: T.Type) {
        self.name = T.typeName
        self.swiftName = String(reflecting: T.self)
        self.targetDescription = T.targetDescription
        self.metatype = type
        self.canApply = { $0 is T.Target }
        let properties = (type as? any PropertyTrait.Type).map { Self.properties(of: $0) }
        self.properties = properties
        self.named = (type as? any NamedPropertyTrait.Type).map { Self.named($0) }
        self.declaredReader = (type as? any DeclarationDecodable.Type)?.declaredReader()
        self.owner = "trait \(T.typeName)"
        self.cssForm = Self.cssForm(of: type)
        self.applyErased = { trait, object in
            guard let target = object as? T.Target else { return nil }
            // The resolver pairs every trait with its own type, so the cast holds.
            let reversal = try (trait as! T).apply(to: target)
            return ErasedReversal { object in
                // The provider hands back the object the reversal was made for.
                if let target = object as? T.Target { reversal.revert(target) }
            }
        }
    }

    /// The declarations `trait`, one of this type, makes on an element: its own
    /// (``CSSTrait``), or those of the properties it declares (``PropertyTrait``, each
    /// ``TraitProperty``'s `css`); nil when the type has no CSS form.
    func cssDeclarations(of trait: any Trait) -> [CSSDeclaration]? {
        cssForm?(trait)
    }

    /// Found once per type, here: asking a trait whether it conforms to one of those protocols
    /// is a search of the runtime's conformance tables, which costs more than the declarations
    /// it finds; this leaves each trait a cast to its own type.
    private static func cssForm<T: Trait>(of type: T.Type) -> (@Sendable (any Trait) -> [CSSDeclaration])? {
        if let styled = type as? any CSSTrait.Type { return ownCSSForm(styled) }
        if let declared = type as? any PropertyTrait.Type { return propertiesCSSForm(declared) }
        return nil
    }

    private static func ownCSSForm<Styled: CSSTrait>(_: Styled.Type) -> @Sendable (any Trait) -> [CSSDeclaration] {
        // The resolver pairs every trait with its own type, so the cast holds.
        { ($0 as! Styled).cssDeclarations }
    }

    /// The declarations of the properties in order; nil if one of them has no CSS form.
    private static func propertiesCSSForm<Declared: PropertyTrait>(
        _: Declared.Type
    ) -> (@Sendable (any Trait) -> [CSSDeclaration])? {
        let properties = Declared.properties.compactMap(\.css)
        guard properties.count == Declared.properties.count else { return nil }
        return { trait in
            // The resolver pairs every trait with its own type, so the cast holds.
            let declared = trait as! Declared
            var declarations: [CSSDeclaration] = []
            for css in properties { declarations += css(declared) }
            return declarations
        }
    }

    /// A property trait's properties, with the trait's type erased.
    private static func properties<T: PropertyTrait>(of type: T.Type) -> [Property] {
        T.properties.map { property in
            // The resolver pairs every trait with its own type, so the cast holds.
            Property(field: property.field, check: property.check, binding: property.binding) {
                property.setting($0 as! T)
            }
        }
    }

    /// A named-property trait's parts, with the trait's type erased.
    private static func named<T: NamedPropertyTrait>(_ type: T.Type) -> Named {
        // The resolver pairs every trait with its own type, so the cast holds.
        Named(settings: { ($0 as! T).namedSettings }, binding: { T.binding(named: $0, exactly: $1) })
    }

    /// The ``PropertyValue``s a trait of this type sets, one per plan step: per property, nil
    /// where its field is left out; a single nil for a trait off the fast path. With them, the
    /// names of the properties a named-property trait sets (nil for any other trait): a plan
    /// depends on them as on the type.
    func settings(of trait: any Trait) -> (names: [String]?, settings: [PropertyValue?]) {
        if let properties { return (nil, properties.map { $0.setting(trait) }) }
        guard let named = named?.settings(trait) else { return (nil, [nil]) }
        return (named.map(\.name), named.map(\.setting))
    }

    /// The ``ValueCheck``s of a property trait's fields.
    var checks: [(field: String, check: ValueCheck)] {
        (properties ?? []).compactMap { property in property.check.map { (property.field, $0) } }
    }

    /// What traits of this type can do with objects of `object`'s class: the one decision the
    /// capability check and the apply share. A property trait applies exactly where every one of
    /// its bindings exists, so the provider never has to fall back to a cast for it. A
    /// named-property trait that sets the properties `names` to values of `kinds` (nil for any
    /// other trait) is bound where the class binds every name and each binding takes its value's
    /// kind; otherwise it applies through its own `apply(to:)`, which decodes each value into
    /// its property's type (a colour written as a string) or says what is wrong (2.5 for an `Int`).
    func verdict(
        for object: AnyObject, names: [String]? = nil, kinds: [PropertyValue.Kind] = []
    ) -> ClassCapabilities.Verdict {
        if let named, let names {
            var bindings: [PropertyBinding] = []
            for (name, kind) in zip(names, kinds) {
                guard let binding = named.binding(name, type(of: object)), binding.takes(kind) else { break }
                bindings.append(binding)
            }
            return ClassCapabilities.Verdict(
                capable: canApply(object), bindings: bindings.count == names.count ? bindings : [])
        }
        guard let properties else { return ClassCapabilities.Verdict(capable: canApply(object), bindings: []) }
        var bindings: [PropertyBinding] = []
        for property in properties {
            guard let binding = property.binding(type(of: object)) else {
                return ClassCapabilities.Verdict(capable: false, bindings: [])
            }
            bindings.append(binding)
        }
        return ClassCapabilities.Verdict(capable: true, bindings: bindings)
    }

    /// Decodes an entry's fields (everything but `type`) into the trait, and checks them.
    ///
    /// The one decision between the two ways to decode: a declared trait is read by its
    /// declaration, and whatever that read does not take (anything invalid among it) goes through
    /// `Decodable`, so every error is that path's, with its place.
    ///
    /// `byDeclaration: false` takes the general path alone, for tests that hold the two equal.
    func decode(_ entry: SpecNode, byDeclaration: Bool = true) throws(SpecError) -> any Trait {
        try decodeWithSettings(entry, byDeclaration: byDeclaration).trait
    }

    /// ``decode(_:byDeclaration:)``, with what the trait sets (``settings(of:)``): from the
    /// declared read where it reads the entry, which then needs no key path read of the trait.
    func decodeWithSettings(_ entry: SpecNode, byDeclaration: Bool = true) throws(SpecError) -> DecodedTrait {
        let decoded: DecodedTrait
        if byDeclaration, let declared = declaredReader?(entry) {
            decoded = declared
        } else {
            let trait = try Self.decode(metatype, entry, owner: owner)
            let (names, settings) = settings(of: trait)
            decoded = DecodedTrait(trait: trait, names: names, settings: settings)
        }
        // A property trait's settings are its properties', in order.
        for (property, setting) in zip(properties ?? [], decoded.settings) {
            guard let check = property.check, case .number(let number)? = setting, let failure = check.failure(number)
            else { continue }
            let field = property.field
            let node = entry.members?.first { $0.key == field }?.value ?? entry
            throw SpecError(.invalidValue, at: node.location, "'\(field)' of \(owner): \(failure)")
        }
        return decoded
    }

    /// The trait read from `entry` by its declaration, unchecked; nil for a type that is not
    /// ``DeclarationDecodable`` or an entry that is not plainly valid.
    func declaredRead(_ entry: SpecNode) -> (any Trait)? {
        declaredReader?(entry)?.trait
    }

    private static func decode<T: Trait>(
        _ type: T.Type, _ entry: SpecNode, owner: String
    ) throws(SpecError) -> any Trait {
        try NodeDecoder.decode(type, from: entry, owner: owner, preread: ["type"])
    }
}

/// A decoded trait with what it sets (``TraitType/settings(of:)``).
struct DecodedTrait: Sendable {
    let trait: any Trait
    /// The names of the properties a named-property trait sets; nil for any other trait.
    let names: [String]?
    /// One per plan step.
    let settings: [PropertyValue?]
}
