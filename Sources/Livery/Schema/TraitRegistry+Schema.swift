import Foundation

extension TraitRegistry {
    /// A JSON Schema (draft 2020-12) of the spec format with every trait this registry knows,
    /// built-in and registered, so that editors with a YAML or JSON language server complete
    /// and check spec files. Any value may also be a `@reference`; colours may be `~functions`.
    public func jsonSchema() -> String {
        let traits = traitTypes.map { Self.entrySchema(for: $0) }
        return """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "title": "Livery spec",
              "type": "object",
              "properties": {
                "$schema": {"type": "string"},
                "include": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                "variables": {"type": "object"},
                "themes": {"type": "object", "additionalProperties": {"type": "object"}},
                "specs": {
                  "type": "object",
                  "additionalProperties": {
                    "oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#/$defs/trait"}}]
                  }
                }
              },
              "additionalProperties": false,
              "$defs": {
                "reference": {"type": "string", "pattern": "^@[^@]", "description": "a variable: @name.name"},
                "function": {"type": "string", "pattern": "^~[^~]", "description": "~alpha(colour, alpha) or ~mix(colour, colour, part)"},
                "trait": {
                  "type": "object",
                  "required": ["type"],
                  "properties": {"type": {"enum": [\(typeNames.map { "\"\($0)\"" }.joined(separator: ", "))]}},
                  "allOf": [
            \(traits.joined(separator: ",\n"))
                  ]
                }
              }
            }

            """
    }

    private static func entrySchema(for type: any Trait.Type) -> String {
        let shape = SchemaRecorder.shape(of: type)
        var properties = [##""type": {"const": "\##(type.typeName)"}"##]
        var required = ["\"type\""]
        if case .object(let object) = shape {
            for property in object.properties {
                properties.append("\"\(property.name)\": \(schema(property.shape.shape, isField: true))")
                if property.required { required.append("\"\(property.name)\"") }
            }
        }
        return """
                    {"if": {"properties": {"type": {"const": "\(type.typeName)"}}}, "then": {"properties": {\(properties.joined(separator: ", "))}, "required": [\(required.joined(separator: ", "))], "additionalProperties": false}}
            """
    }

    /// A field may always be a reference instead; a colour may also be a colour function.
    private static func schema(_ shape: Shape, isField: Bool) -> String {
        let base: String
        switch shape {
        case .unknown: base = "{}"
        case .boolean: base = ##"{"type": "boolean"}"##
        case .integer: base = ##"{"type": "integer"}"##
        case .number: base = ##"{"type": "number"}"##
        case .string: base = ##"{"type": "string"}"##
        case .array(let element): base = ##"{"type": "array", "items": \##(schema(element.shape, isField: true))}"##
        case .object(let object):
            let properties = object.properties.map { "\"\($0.name)\": \(schema($0.shape.shape, isField: true))" }
            let required = object.properties.filter(\.required).map { "\"\($0.name)\"" }
            base =
                ##"{"type": "object", "properties": {\##(properties.joined(separator: ", "))}, "required": [\##(required.joined(separator: ", "))], "additionalProperties": false}"##
        case .literal(let text): base = text
        }
        guard isField else { return base }
        let function = base == KnownShapes.colour ? ###", {"$ref": "#/$defs/function"}"### : ""
        return ###"{"anyOf": [\###(base), {"$ref": "#/$defs/reference"}\###(function)]}"###
    }
}
