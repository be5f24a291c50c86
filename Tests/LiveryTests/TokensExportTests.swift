import Foundation
import Livery
import PropertyBased
import Testing

/// `Spec.tokensDocument`: the spec's variables as one design tokens document, read back alike.
@Suite struct TokensExportTests {
    @Test func yamlVariablesAreTypedByTheirKind() throws {
        let spec = try Spec(
            yaml: """
                variables:
                  colors: { accent: "#0A84FF", veil: "~alpha(@colors.accent, 0.5)", link: "@colors.accent" }
                  type: { family: Inter, body: 15 }
                  flags: { beta: true }
                specs: {}
                """)
        let document = spec.tokensDocument
        #expect(
            document["colors"]?["accent"]?.canonicalJSON
                == ##"{"$value":{"colorSpace":"srgb","components":[0.0392156862745098,0.5176470588235295,1],"hex":"#0a84ff"},"$type":"color"}"##
        )
        #expect(document["colors"]?["link"]?.canonicalJSON == #"{"$value":"{colors.accent}"}"#)
        #expect(document["colors"]?["veil"]?["$type"]?.string == "color")
        #expect(document["colors"]?["veil"]?["$value"]?["alpha"]?.canonicalJSON == "0.5019607843137255")
        #expect(document["type"]?["body"]?.canonicalJSON == #"{"$value":15,"$type":"number"}"#)
        #expect(
            document["type"]?["family"]?.canonicalJSON
                == #"{"$value":"Inter","$extensions":{"dev.livery":{"type":"string"}}}"#)
        #expect(document["flags"]?["beta"]?["$extensions"]?["dev.livery"]?["type"]?.string == "boolean")
    }

    @Test func importedTokensAreWrittenBackAsTheyWereRead() throws {
        var set = SpecSourceSet()
        try set.set("brand.tokens.json", to: Data(DesignTokensTests.document.utf8))
        let spec = try Spec(sources: set)
        let primary = try #require(spec.tokensDocument["color"]?["brand"]?["primary"])
        #expect(primary["$description"]?.string == "Buttons and links")
        #expect(primary["$extensions"]?.canonicalJSON == #"{"org.example.tool":{"locked":true}}"#)
        #expect(primary["$type"]?.string == "color")
        let legacy = try #require(spec.tokensDocument["color"]?["legacy"])
        #expect(legacy["$value"]?.string == "{color.brand.$root}")
        #expect(legacy["$deprecated"]?.string == "use {color.brand.primary}")
        #expect(
            spec.tokensDocument["font"]?["family"]?["$value"]?.canonicalJSON == #"["Inter","Helvetica","sans-serif"]"#)
    }

    /// One random variable, chosen from a number: its value may name the variables before it.
    static func variable(_ seed: Int, index: Int, earlier: [(path: String, isColor: Bool)]) -> (String, String, Bool) {
        let value = seed / 16
        let colors = earlier.filter(\.isColor)
        let hex = String(format: "#%06X", value & 0xFFFFFF)
        switch seed % 16 {
        case 0, 1: return (String(value % 1000), "n", false)
        case 2: return (String(Double(value % 10_000) / 8), "d", false)
        case 3, 4: return ("\"\(hex)\"", "c", true)
        case 5: return ("\"\(hex)\(String(format: "%02X", value % 255))\"", "c", true)
        case 6: return ("\"F\(value % 7) name\"", "s", false)
        case 7: return ("\"@@at\(value % 3)\"", "s", false)
        case 8: return (value % 2 == 0 ? "true" : "false", "b", false)
        case 9: return ("null", "z", false)
        case 10: return ("[1, \"x\", \(value % 5)]", "l", false)
        case 11: return ("{\"top\": \(value % 9), \"left\": 2}", "m", false)
        case 12: return ("{}", "e", false)
        case 13 where !earlier.isEmpty:
            return ("\"@\(earlier[value % earlier.count].path)\"", "r", false)
        case 14 where !colors.isEmpty:
            return ("\"~alpha(@\(colors[value % colors.count].path), 0.\(value % 10))\"", "f", true)
        default: return ("\(value % 50)", "n", false)
        }
    }

    @Test func exportThenImportGivesTheSameVariables() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...1_000_000).array(of: 0...24)) { seeds in
            var earlier: [(path: String, isColor: Bool)] = []
            var groups: [Int: [String]] = [:]
            for (index, seed) in seeds.enumerated() {
                let (value, kind, isColor) = Self.variable(seed, index: index, earlier: earlier)
                let group = seed % 3
                groups[group, default: []].append("\"\(kind)\(index)\": \(value)")
                earlier.append(("g\(group).\(kind)\(index)", isColor))
            }
            let variables = groups.keys.sorted().map { "\"g\($0)\": {\(groups[$0]!.joined(separator: ", "))}" }
            let json = "{\"variables\": {\(variables.joined(separator: ", "))}, \"specs\": {}}"
            do {
                let spec = try Spec(json: json)
                let tokens = spec.tokensDocument.canonicalJSON
                let back = try Spec(data: Data(tokens.utf8), format: .json, source: "export.tokens.json")
                let before = try SpecNode.parse(Data(spec.bundleJSON.utf8), format: .json, source: "a")["variables"]
                let after = try SpecNode.parse(Data(back.bundleJSON.utf8), format: .json, source: "b")["variables"]
                #expect(
                    before.map { after?.hasSameContent(as: $0) == true } == true,
                    "\(json)\nexported: \(tokens)\nread back: \(back.bundleJSON)")
            } catch {
                Issue.record("unexpected error \(error) for \(json)")
            }
        }
    }
}
