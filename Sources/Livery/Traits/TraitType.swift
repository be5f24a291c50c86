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
    /// How many plan steps and settings a trait of this type takes: one per property, or one.
    let stepCount: Int

    /// One property of a ``PropertyTrait``, with the trait's type erased.
    struct Property: Sendable {
        let field: String
        let check: ValueCheck?
        let binding: @Sendable (AnyClass) -> PropertyBinding?
        let setting: @Sendable (any Trait) -> PropertyValue?
    }

    init<T: Trait>(_ type: T.Type) {
        self.name = T.typeName
        self.swiftName = String(reflecting: T.self)
        self.targetDescription = T.targetDescription
        self.metatype = type
        self.canApply = { $0 is T.Target }
        let properties = (type as? any PropertyTrait.Type).map { Self.properties(of: $0) }
        self.properties = properties
        self.stepCount = properties?.count ?? 1
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

    /// A property trait's properties, with the trait's type erased.
    private static func properties<T: PropertyTrait>(of type: T.Type) -> [Property] {
        T.properties.map { property in
            // The resolver pairs every trait with its own type, so the cast holds.
            Property(field: property.field, check: property.check, binding: property.binding) {
                property.setting($0 as! T)
            }
        }
    }

    /// The ``PropertyValue``s a trait of this type sets, one per plan step: per property, nil
    /// where its field is left out; a single nil for a trait off the fast path.
    func settings(of trait: any Trait) -> [PropertyValue?] {
        properties?.map { $0.setting(trait) } ?? [nil]
    }

    /// The ``ValueCheck``s of a property trait's fields.
    var checks: [(field: String, check: ValueCheck)] {
        (properties ?? []).compactMap { property in property.check.map { (property.field, $0) } }
    }

    /// What traits of this type can do with objects of `object`'s class: the one decision the
    /// capability check and the apply share. A property trait applies exactly where every one
    /// of its bindings exists, so the provider never has to fall back to a cast for it.
    func verdict(for object: AnyObject) -> ClassCapabilities.Verdict {
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
    func decode(_ entry: SpecNode) throws(SpecError) -> any Trait {
        let owner = "trait \(name)"
        let trait = try Self.decode(metatype, entry, owner: owner)
        for property in properties ?? [] {
            guard let check = property.check, case .number(let number)? = property.setting(trait),
                let failure = check.failure(number)
            else { continue }
            let field = property.field
            let node = entry.members?.first { $0.key == field }?.value ?? entry
            throw SpecError(.invalidValue, at: node.location, "'\(field)' of \(owner): \(failure)")
        }
        return trait
    }

    private static func decode<T: Trait>(
        _ type: T.Type, _ entry: SpecNode, owner: String
    ) throws(SpecError) -> any Trait {
        try NodeDecoder.decode(type, from: entry, owner: owner, preread: ["type"])
    }
}
