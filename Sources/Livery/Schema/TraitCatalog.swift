/// What Livery Studio needs to show and edit the traits a registry knows: for each, what it
/// applies to and its fields, with the kind of value each holds and its bounds. The daemon
/// serves it at `GET /v1/traits`, so the page names no trait of its own.
package struct TraitCatalog: Encodable, Sendable {
    /// One trait type.
    package struct Entry: Encodable, Sendable, Equatable {
        /// Its name in specs.
        package let type: String
        /// What it applies to: a capability protocol, or a class.
        package let target: String
        package let fields: [Field]
    }

    /// One field of a trait's spec entry.
    package struct Field: Encodable, Sendable, Equatable {
        package let name: String
        /// `color`, `number`, `integer`, `text`, `flag`, `insets`, `size`, `point`, `weight`,
        /// `mapping`, `list`, `group` or `any`.
        package let kind: String
        package let required: Bool
        package var minimum: Double?
        package var exclusiveMinimum: Double?
        package var maximum: Double?
        /// The names a `weight` may be written as.
        package var choices: [String]?
    }

    /// The traits, sorted by name.
    package let traits: [Entry]

    /// The catalog of `registry`'s traits.
    package init(registry: TraitRegistry) {
        traits = registry.registeredTypes.map { type in
            Entry(type: type.name, target: type.targetDescription, fields: type.fields.map(Self.field))
        }
    }

    private static func field(_ field: TraitType.Field) -> Field {
        var described = Field(name: field.name, kind: kind(of: field.shape), required: field.required)
        switch field.check {
        case .atLeast(let bound)?: described.minimum = bound
        case .greaterThan(let bound)?: described.exclusiveMinimum = bound
        case .within(let range)?:
            described.minimum = range.lowerBound
            described.maximum = range.upperBound
        case nil: break
        }
        if described.kind == "weight" { described.choices = FontWeight.allCases.map(\.rawValue) }
        return described
    }

    private static func kind(of shape: Shape) -> String {
        switch shape {
        case .unknown: "any"
        case .boolean: "flag"
        case .integer: "integer"
        case .number: "number"
        case .string: "text"
        case .array: "list"
        case .object: "group"
        case .literal(_, let kind): kind
        }
    }
}
