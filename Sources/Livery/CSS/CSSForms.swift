/// The CSS form of each trait type met, found once per type: a trait's own (``CSSTrait``), or
/// that of the properties it declares (``PropertyTrait``, each ``TraitProperty``'s `css`).
///
/// Asking a trait whether it conforms to one of those protocols is a search of the runtime's
/// conformance tables, which costs more than the declarations it finds; asking once per type
/// leaves each trait a cast to its own type.
struct CSSForms {
    private typealias Form = (any Trait) -> [CSSDeclaration]
    /// By trait type; nil for a type with no CSS form.
    private var forms: [ObjectIdentifier: Form?] = [:]

    /// The declarations `trait` makes; nil when its type has no CSS form.
    mutating func declarations(of trait: any Trait) -> [CSSDeclaration]? {
        let traitType = type(of: trait)
        let key = ObjectIdentifier(traitType)
        if let known = forms[key] { return known?(trait) }
        let form = Self.form(of: traitType)
        forms[key] = form
        return form?(trait)
    }

    private static func form(of type: any Trait.Type) -> Form? {
        if let styled = type as? any CSSTrait.Type { return ownForm(styled) }
        if let declared = type as? any PropertyTrait.Type { return propertiesForm(declared) }
        return nil
    }

    private static func ownForm<Styled: CSSTrait>(_: Styled.Type) -> Form {
        // Only traits of this type are looked up under it, so the cast holds.
        { ($0 as! Styled).cssDeclarations }
    }

    /// The declarations of the properties in order; nil if one of them has no CSS form.
    private static func propertiesForm<Declared: PropertyTrait>(_: Declared.Type) -> Form? {
        let properties = Declared.properties.compactMap(\.css)
        guard properties.count == Declared.properties.count else { return nil }
        return { trait in
            // Only traits of this type are looked up under it, so the cast holds.
            let declared = trait as! Declared
            var declarations: [CSSDeclaration] = []
            for css in properties { declarations += css(declared) }
            return declarations
        }
    }
}
