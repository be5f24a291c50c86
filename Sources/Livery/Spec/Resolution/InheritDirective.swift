/// `{ type: Inherit, traits: [text.base] }`: brings in the traits of other identifiers, in place.
///
/// A directive of the spec language, not a trait: the resolver flattens it when a spec is read,
/// so no provider ever sees it, and it is spelt as the original Traits library spelt it. Cycles
/// and unknown identifiers are errors in the spec.
struct InheritDirective: Decodable {
    /// `Inherit`: a name no trait type may take.
    static let typeName = "Inherit"
    /// The identifiers whose traits are brought in, in order.
    let traits: [String]
}
