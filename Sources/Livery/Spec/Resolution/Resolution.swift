/// A spec resolved for one theme: for each identifier, the traits to apply, in order.
struct Resolution: Sendable {
    /// One identifier's traits, with a key that is equal exactly when the traits are.
    struct List: Sendable {
        var traits: [ResolvedTrait]
        /// The resolved entries as canonical JSON: the provider compares keys to re-apply only
        /// identifiers whose traits changed.
        var contentKey: String
    }

    var lists: [String: List]
    /// Identifiers in document order.
    var order: [String]

    static let empty = Resolution(lists: [:], order: [])
}

/// A decoded trait and the entry it came from.
struct ResolvedTrait: Sendable {
    let trait: any Trait
    let location: SourceLocation
    /// The trait's type, for the provider's capability cache.
    let typeID: ObjectIdentifier

    init(trait: any Trait, location: SourceLocation) {
        self.trait = trait
        self.location = location
        self.typeID = ObjectIdentifier(type(of: trait))
    }

    var typeName: String { type(of: trait).typeName }
}
