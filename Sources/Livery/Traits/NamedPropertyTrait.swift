/// A trait that names the properties it sets in each of its values rather than in its type, as
/// `Set` does: the provider binds the names once it knows the target's class, and applies the
/// trait on its fast path where the class binds them all.
///
/// The values are typed as the spec wrote them, since the properties' types are known only with
/// the class. Where a value is not of a kind its property's binding takes (a spec's string for a
/// colour, 2.5 for an `Int`), the provider applies the trait through its own `apply(to:)`
/// instead, which decodes each value into its property's type or says what is wrong.
protocol NamedPropertyTrait: Trait {
    /// The properties the trait sets, in order, each with its value as the spec typed it; nil
    /// where a value has no ``PropertyValue`` form, and the trait applies through `apply(to:)`.
    var namedSettings: [(name: String, setting: PropertyValue)]? { get }

    /// How to set the property `name` on objects of exactly `type`; nil where the class lacks it.
    static func binding(named name: String, exactly type: AnyClass) -> PropertyBinding?
}
