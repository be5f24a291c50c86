/// A spec resolved for one theme: for each identifier, the traits to apply, in order.
struct Resolution: Sendable {
    /// One identifier's traits, with a key that is equal exactly when the traits are.
    struct List: Sendable {
        var traits: [ResolvedTrait]
        /// The resolved entries as canonical JSON: the provider compares keys to re-apply only
        /// identifiers whose traits changed.
        var contentKey: String
    }

    /// Identifiers in document order.
    let order: [String]
    /// The lists, in the same order as `order`.
    let lists: [List]
    private let positions: [String: Int]

    init(order: [String], lists: [List]) {
        precondition(order.count == lists.count, "one list per identifier")
        self.order = order
        self.lists = lists
        self.positions = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static let empty = Resolution(order: [], lists: [])

    /// The traits for `identifier`, if the spec names it.
    func list(for identifier: String) -> List? {
        positions[identifier].map { lists[$0] }
    }
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
