extension TraitType {
    /// One field of a trait's spec entry.
    struct Field {
        let name: String
        let shape: Shape
        let required: Bool
        /// The bound its declaration gives a number, if any.
        let check: ValueCheck?
    }

    /// The trait's fields as a spec entry writes them (`type` aside), in the order its decoder
    /// reads them: recorded from the decoder, with the checks a ``PropertyTrait`` declares. What
    /// the JSON Schema and Livery Studio's catalog are made from, so the two cannot disagree.
    var fields: [Field] {
        Self.fields(of: metatype, checks: checks.map { ($0.field, $0.check) })
    }

    /// The fields `type` decodes, with `checks` by field.
    static func fields(of type: any Decodable.Type, checks: [(field: String, check: ValueCheck)] = []) -> [Field] {
        guard case .object(let object) = SchemaRecorder.shape(of: type) else { return [] }
        return object.properties.map { property in
            Field(
                name: property.name, shape: property.shape.shape, required: property.required,
                check: checks.first { $0.field == property.name }?.check)
        }
    }
}
