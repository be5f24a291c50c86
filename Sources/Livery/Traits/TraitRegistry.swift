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
    /// - Throws: ``TraitRegistryError`` if another type already uses the same `typeName`, or the
    ///   type is named `Inherit`, which specs spell a directive with.
    public func register<T: Trait>(_ type: T.Type) throws(TraitRegistryError) {
        let entry = TraitType(type)
        guard entry.name != InheritDirective.typeName else {
            throw TraitRegistryError(
                typeName: entry.name, existing: "the spec language's Inherit directive", new: entry.swiftName)
        }
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
        registeredTypes.map(\.metatype)
    }

    /// The registered trait types, sorted by name.
    var registeredTypes: [TraitType] {
        types.withLock { $0.values.sorted { $0.name < $1.name } }
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
