import Foundation

extension TraitRegistry {
    /// A JSON Schema (draft 2020-12) of the spec format with every trait this registry knows,
    /// built-in and registered, so that editors with a YAML or JSON language server complete
    /// and check spec files. Any value may also be a `@reference`; colours may be `~functions`.
    public func jsonSchema() -> String {
        // `Inherit` is a directive, not a trait, but a spec writes it as one.
        let entries =
            (registeredTypes.map { ($0.name, $0.fields) }
            + [(InheritDirective.typeName, TraitType.fields(of: InheritDirective.self))])
            .sorted { $0.0 < $1.0 }
        let traits = entries.map { Self.entrySchema(name: $0.0, fields: $0.1) }
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
                  "properties": {"type": {"enum": [\(entries.map { "\"\($0.0)\"" }.joined(separator: ", "))]}},
                  "allOf": [
            \(traits.joined(separator: ",\n"))
                  ]
                }
              }
            }

            """
    }

    private static func entrySchema(name: String, fields: [TraitType.Field]) -> String {
        var properties = [##""type": {"const": "\##(name)"}"##]
        var required = ["\"type\""]
        for field in fields {
            properties.append("\"\(field.name)\": \(schema(field.shape, check: field.check, isField: true))")
            if field.required { required.append("\"\(field.name)\"") }
        }
        return """
                    {"if": {"properties": {"type": {"const": "\(name)"}}}, "then": {"properties": {\(properties.joined(separator: ", "))}, "required": [\(required.joined(separator: ", "))], "additionalProperties": false}}
            """
    }

    /// A field may always be a reference instead; a colour may also be a colour function. A
    /// number a ``ValueCheck`` bounds says so.
    private static func schema(_ shape: Shape, check: ValueCheck? = nil, isField: Bool) -> String {
        let base: String
        switch shape {
        case .unknown: base = "{}"
        case .boolean: base = ##"{"type": "boolean"}"##
        case .integer: base = ##"{"type": "integer"}"##
        case .number: base = ##"{"type": "number"\##(check.map { ", " + $0.schemaKeywords } ?? "")}"##
        case .string: base = ##"{"type": "string"}"##
        case .array(let element): base = ##"{"type": "array", "items": \##(schema(element.shape, isField: true))}"##
        case .object(let object):
            let properties = object.properties.map { "\"\($0.name)\": \(schema($0.shape.shape, isField: true))" }
            let required = object.properties.filter(\.required).map { "\"\($0.name)\"" }
            base =
                ##"{"type": "object", "properties": {\##(properties.joined(separator: ", "))}, "required": [\##(required.joined(separator: ", "))], "additionalProperties": false}"##
        case .literal(let text, _): base = text
        }
        guard isField else { return base }
        let function = base == KnownShapes.colour ? ###", {"$ref": "#/$defs/function"}"### : ""
        return ###"{"anyOf": [\###(base), {"$ref": "#/$defs/reference"}\###(function)]}"###
    }
}
