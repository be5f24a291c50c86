import Foundation
import Livery
import LiveryTesting
import Testing

/// Every trait the registry knows is on every surface that names traits: the JSON Schema,
/// `GET /v1/traits` (with the same fields as the schema), the test kit's `StyledBox`, and Livery
/// Studio, which names no trait of its own but draws each from the catalog.
@Suite(.timeLimit(.minutes(1))) struct TraitSurfaceTests {
    struct Catalog: Decodable {
        var traits: [Entry]
    }

    struct Entry: Decodable {
        var type: String
        var target: String
        var fields: [Field]
    }

    struct Field: Decodable {
        var name: String
        var kind: String
        var required: Bool
        var minimum: Double?
        var exclusiveMinimum: Double?
        var choices: [String]?
    }

    @Test func everyRegisteredTraitIsOnEverySurface() async throws {
        let registry = TraitRegistry.standard
        let names = registry.typeNames
        let schema = try Self.schemaFields(registry.jsonSchema())
        let (catalog, studio) = try await TestDaemon.with { server in
            let reply = try await server.http.get("/v1/traits")
            #expect(reply.status == 200)
            return (try JSONDecoder().decode(Catalog.self, from: reply.body), try await Self.studioModules(server))
        }

        #expect(catalog.traits.map(\.type) == names, "GET /v1/traits")
        for entry in catalog.traits {
            #expect(schema[entry.type] == entry.fields.map(\.name), "the JSON Schema's fields of \(entry.type)")
            // The kit's box adopts every capability: each trait, written with a value of each
            // field's kind, loads onto it.
            let provider = TraitsProvider(registry: registry)
            provider.register(StyledBox(), as: "box")
            let spec = #"{"specs": {"box": [\#(try Self.sample(entry))]}}"#
            #expect(throws: Never.self, "StyledBox and \(entry.type): \(spec)") { try provider.load(Spec(json: spec)) }
        }
        #expect(
            studio.keys.contains("api.js") && studio["api.js"]!.contains("\"/v1/traits\""),
            "the studio reads the catalog")
        // The daemon's stylesheet draws the preview: no module of the page names a trait type.
        for (module, text) in studio {
            for name in names {
                #expect(
                    !text.contains("\"\(name)\"") && !text.contains("'\(name)'"), "studio/js/\(module) names \(name)")
            }
        }
    }

    /// Each trait's fields in the JSON Schema, by trait name; a name in the `type` enum without
    /// an entry of its own has no fields.
    static func schemaFields(_ schema: String) throws -> [String: [String]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])
        let trait = try #require((root["$defs"] as? [String: Any])?["trait"] as? [String: Any])
        var fields: [String: [String]] = [:]
        for case let entry as [String: Any] in try #require(trait["allOf"] as? [Any]) {
            let condition = (entry["if"] as? [String: Any])?["properties"] as? [String: Any]
            let name = try #require((condition?["type"] as? [String: Any])?["const"] as? String)
            let then = try #require(entry["then"] as? [String: Any])
            let properties = try #require(then["properties"] as? [String: Any])
            // The schema lists fields in JSON object order, which JSONSerialization loses.
            fields[name] = Self.orderedKeys(of: properties, in: schema, after: "\"const\": \"\(name)\"}}}, \"then\"")
        }
        return fields
    }

    /// `properties`'s keys other than `type`, in the order they stand in `schema` after `marker`.
    static func orderedKeys(of properties: [String: Any], in schema: String, after marker: String) -> [String] {
        guard let start = schema.range(of: marker)?.upperBound else { return [] }
        let line = schema[start...].prefix { $0 != "\n" }
        return properties.keys.filter { $0 != "type" }
            .sorted { line.range(of: "\"\($0)\": ")!.lowerBound < line.range(of: "\"\($1)\": ")!.lowerBound }
    }

    /// A spec entry for `entry` with a value of each field's kind.
    static func sample(_ entry: Entry) throws -> String {
        var members = [#""type": "\#(entry.type)""#]
        for field in entry.fields {
            let value: String
            switch field.kind {
            case "color": value = ##""#123456""##
            case "number":
                value = field.minimum.map { "\($0 + 0.5)" } ?? field.exclusiveMinimum.map { "\($0 + 1)" } ?? "1"
            case "integer": value = "1"
            case "text": value = #""Inter""#
            case "flag": value = "true"
            case "insets": value = "4"
            case "size", "point": value = "[1, 2]"
            case "weight": value = #""\#(try #require(field.choices?.first))""#
            case "mapping", "group": value = "{}"
            case "list": value = "[]"
            default:
                Issue.record("\(entry.type).\(field.name): a field kind the test does not know, \(field.kind)")
                continue
            }
            members.append(#""\#(field.name)": \#(value)"#)
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// The studio's JavaScript modules, by file name: app.js and every module it imports, as the
    /// daemon serves them.
    static func studioModules(_ server: TestDaemon) async throws -> [String: String] {
        var modules: [String: String] = [:]
        var pending = ["app.js"]
        while let module = pending.popLast() {
            guard modules[module] == nil else { continue }
            let reply = try await server.http.get("/studio/js/\(module)")
            #expect(reply.status == 200, "studio/js/\(module)")
            modules[module] = reply.text
            for match in reply.text.matches(of: /from "\.\/([a-z]+\.js)"/) { pending.append(String(match.1)) }
        }
        return modules
    }
}
