import Synchronization

/// The trait types a spec may name, by their ``Trait/typeName``.
///
/// ``standard`` holds the built-ins and is what ``Spec`` and ``TraitsProvider`` use unless told
/// otherwise. Registering is thread-safe; register custom traits before loading specs that
/// use them.
public final class TraitRegistry: Sendable {
    /// The process-wide registry: the built-in traits, plus whatever the program registers.
    public static let standard = TraitRegistry()

    private let types: Mutex<[String: TraitType]>

    /// Creates a registry holding the built-in traits, or nothing.
    public init(includingBuiltIns: Bool = true) {
        var types: [String: TraitType] = [:]
        if includingBuiltIns {
            for type in BuiltInTraits.all {
                types[type.name] = type
            }
        }
        self.types = Mutex(types)
    }

    /// Adds a trait type.
    ///
    /// - Throws: ``TraitRegistryError`` if another type already uses the same `typeName`.
    public func register<T: Trait>(_ type: T.Type) throws(TraitRegistryError) {
        let entry = TraitType(type)
        try types.withLock { (types) throws(TraitRegistryError) in
            if let existing = types[entry.name] {
                throw TraitRegistryError(typeName: entry.name, existing: existing.swiftName, new: entry.swiftName)
            }
            types[entry.name] = entry
        }
    }

    /// The registered type names, sorted.
    public var typeNames: [String] {
        types.withLock { $0.keys.sorted() }
    }

    /// The registered trait types, sorted by name.
    public var traitTypes: [any Trait.Type] {
        types.withLock { $0.values.sorted { $0.name < $1.name }.map(\.metatype) }
    }

    func type(named name: String) -> TraitType? {
        types.withLock { $0[name] }
    }
}

/// Two trait types were registered under one name.
public struct TraitRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name both types claim.
    public var typeName: String
    /// The Swift type registered first.
    public var existing: String
    /// The Swift type that was refused.
    public var new: String

    /// Explains the clash.
    public var description: String {
        "trait type name '\(typeName)' is already registered by \(existing); \(new) needs another typeName"
    }
}

/// A registered trait type: how to decode it from a spec entry and apply it to an object
/// whose type is known only at run time.
final class TraitType: Sendable {
    let name: String
    let swiftName: String
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
    /// For a ``PropertyTrait``: its binding for a class, nil where the class lacks the capability.
    private let propertyBinding: (@Sendable (AnyClass) -> PropertyBinding?)?

    init<T: Trait>(_ type: T.Type) {
        self.name = T.typeName
        self.swiftName = String(reflecting: T.self)
        self.metatype = type
        self.canApply = { $0 is T.Target }
        if let property = type as? any PropertyTrait.Type {
            self.propertyBinding = { property.binding(for: $0) }
        } else {
            self.propertyBinding = nil
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

    /// What traits of this type can do with objects of `object`'s class: the one decision the
    /// capability check and the apply share. A property trait applies exactly where its binding
    /// exists, so the provider never has to fall back to a cast for it.
    func verdict(for object: AnyObject) -> ClassCapabilities.Verdict {
        guard let propertyBinding else { return ClassCapabilities.Verdict(capable: canApply(object), binding: nil) }
        let binding = propertyBinding(type(of: object))
        return ClassCapabilities.Verdict(capable: binding != nil, binding: binding)
    }

    /// Decodes an entry's fields (everything but `type`) into the trait.
    func decode(_ entry: SpecNode) throws(SpecError) -> any Trait {
        try Self.decode(metatype, entry, owner: "trait \(name)")
    }

    private static func decode<T: Trait>(
        _ type: T.Type, _ entry: SpecNode, owner: String
    ) throws(SpecError) -> any Trait {
        try NodeDecoder.decode(type, from: entry, owner: owner, preread: ["type"])
    }
}
