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
    /// For a ``PropertyTrait`` of one property: its binding for a class, nil where the class
    /// lacks the capability, and the value a trait of this type sets.
    private let property:
        (binding: @Sendable (AnyClass) -> PropertyBinding?, setting: @Sendable (any Trait) -> PropertyValue?)?
    /// For a ``PropertyTrait``: its fields' ``ValueCheck``s, by field.
    let checks: [(field: String, check: ValueCheck, value: @Sendable (any Trait) -> PropertyValue?)]

    init<T: Trait>(_ type: T.Type) {
        self.name = T.typeName
        self.swiftName = String(reflecting: T.self)
        self.targetDescription = T.targetDescription
        self.metatype = type
        self.canApply = { $0 is T.Target }
        let properties = (type as? any PropertyTrait.Type).map { Self.properties(of: $0) } ?? []
        self.property = properties.count == 1 ? (properties[0].binding, properties[0].setting) : nil
        self.checks = properties.compactMap { property in property.check.map { (property.field, $0, property.setting) }
        }
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
    private static func properties<T: PropertyTrait>(
        of type: T.Type
    ) -> [(
        field: String, check: ValueCheck?, binding: @Sendable (AnyClass) -> PropertyBinding?,
        setting: @Sendable (any Trait) -> PropertyValue?
    )] {
        T.properties.map { property in
            (property.field, property.check, property.binding, { property.setting($0 as! T) })
        }
    }

    /// The value a trait of this type sets on the provider's fast path; nil for a trait off it,
    /// or one whose field is left out.
    func setting(of trait: any Trait) -> PropertyValue? {
        property?.setting(trait)
    }

    /// What traits of this type can do with objects of `object`'s class: the one decision the
    /// capability check and the apply share. A property trait applies exactly where its binding
    /// exists, so the provider never has to fall back to a cast for it.
    func verdict(for object: AnyObject) -> ClassCapabilities.Verdict {
        guard let property else { return ClassCapabilities.Verdict(capable: canApply(object), binding: nil) }
        let binding = property.binding(type(of: object))
        return ClassCapabilities.Verdict(capable: binding != nil, binding: binding)
    }

    /// Decodes an entry's fields (everything but `type`) into the trait, and checks them.
    func decode(_ entry: SpecNode) throws(SpecError) -> any Trait {
        let owner = "trait \(name)"
        let trait = try Self.decode(metatype, entry, owner: owner)
        for (field, check, value) in checks {
            guard case .number(let number)? = value(trait), let failure = check.failure(number) else { continue }
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
