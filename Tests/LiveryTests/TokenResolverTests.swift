import Foundation
import Livery
import LiveryTesting
import Testing

/// Resolver documents (Resolver Module 2025.10): sets and modifiers become variables and themes.
@Suite struct TokenResolverTests {
    static let resolver = """
        {
          "version": "2025.10",
          "sets": {
            "foundation": { "sources": [{ "$ref": "tokens/palette.tokens.json" }, { "$ref": "tokens/size.tokens.json" }] }
          },
          "modifiers": {
            "theme": {
              "contexts": {
                "light": [{ "$ref": "tokens/light.tokens.json" }],
                "dark": [{ "$ref": "tokens/dark.tokens.json" }]
              },
              "default": "light"
            },
            "contrast": {
              "contexts": {
                "normal": [],
                "high": [{ "color": { "$type": "color", "text": { "$value": "{color.palette.black}" } } }]
              },
              "default": "normal"
            }
          },
          "resolutionOrder": [
            { "$ref": "#/sets/foundation" },
            { "$ref": "#/modifiers/theme" },
            { "$ref": "#/modifiers/contrast" },
            { "type": "modifier", "name": "density", "contexts": { "normal": [], "compact": [{ "$ref": "tokens/compact.tokens.json" }] } }
          ]
        }
        """

    static func color(_ name: String, _ r: Double, _ g: Double, _ b: Double) -> String {
        #""\#(name)": { "$value": { "colorSpace": "srgb", "components": [\#(r), \#(g), \#(b)] } }"#
    }

    private func folder() throws -> TemporarySpecFolder {
        let folder = try TemporarySpecFolder()
        try folder.write("themes.resolver.json", Self.resolver)
        try folder.write(
            "tokens/palette.tokens.json",
            #"{ "color": { "$type": "color", "palette": { \#(Self.color("white", 1, 1, 1)), \#(Self.color("black", 0, 0, 0)), \#(Self.color("grey", 0.4, 0.4, 0.4)) } } }"#
        )
        try folder.write(
            "tokens/size.tokens.json",
            #"{ "space": { "$type": "dimension", "pad": { "$value": { "value": 8, "unit": "px" } } } }"#)
        try folder.write(
            "tokens/light.tokens.json",
            #"{ "color": { "$type": "color", "background": { "$value": "{color.palette.white}" }, "text": { "$value": "{color.palette.grey}" } } }"#
        )
        try folder.write(
            "tokens/dark.tokens.json",
            #"{ "color": { "$type": "color", "background": { "$value": "{color.palette.black}" }, "text": { "$value": "{color.palette.white}" } } }"#
        )
        try folder.write(
            "tokens/compact.tokens.json",
            #"{ "space": { "$type": "dimension", "pad": { "$value": { "value": 4, "unit": "px" } } } }"#)
        try folder.write(
            "card.yaml",
            """
            specs:
              card:
                - { type: BackgroundColor, color: "@color.background" }
                - { type: TextColor, color: "@color.text" }
                - { type: Padding, insets: "@space.pad" }
            """)
        return folder
    }

    @Test func eachContextIsAThemeAndAliasesResolveAfterTheMerge() throws {
        let folder = try folder()
        let spec = try Spec(directory: folder.url)
        #expect(
            spec.themes == [
                "light", "dark", "contrast.normal", "high", "density.normal", "compact",
                "dark+high", "dark+compact", "high+compact", "dark+high+compact",
            ])
        let base = spec.traits(for: "card")
        #expect((base[0] as? BackgroundColor)?.color == Color(hex: "#FFFFFF"))
        #expect((base[1] as? TextColor)?.color == Color(hex: "#666666"))
        let dark = spec.traits(for: "card", theme: "dark")
        #expect((dark[0] as? BackgroundColor)?.color == Color(hex: "#000000"))
        #expect((dark[1] as? TextColor)?.color == Color(hex: "#FFFFFF"))
        let high = spec.traits(for: "card", theme: "high")
        #expect((high[1] as? TextColor)?.color == Color(hex: "#000000"))
        #expect((spec.traits(for: "card", theme: "compact")[2] as? Padding)?.insets == Insets(all: 4))
        #expect((spec.traits(for: "card")[2] as? Padding)?.insets == Insets(all: 8))
        #expect(spec.files.contains("themes.resolver.json"))
        #expect(!spec.files.contains("tokens/dark.tokens.json"), "the resolver's files are read through it")
    }

    typealias Case = LocatedErrorCase

    static let cases: [Case] = [
        Case(
            name: "reference to no set",
            document: ##"{ "version": "2025.10", "resolutionOrder": [{ "$ref": "#/sets/missing" }] }"##,
            code: .unresolvedReference, at: ##""#/sets/missing""##,
            message: "'#/sets/missing' names no set of this resolver"),
        Case(
            name: "reference to no file",
            document:
                ##"{ "version": "2025.10", "sets": { "a": { "sources": [{ "$ref": "nope.tokens.json" }] } }, "resolutionOrder": [{ "$ref": "#/sets/a" }] }"##,
            code: .unresolvedReference, at: #""nope.tokens.json""#,
            message: "'nope.tokens.json' names no file in the specs folder"),
        Case(
            name: "set referencing a modifier",
            document:
                ##"{ "version": "2025.10", "sets": { "a": { "sources": [{ "$ref": "#/modifiers/m" }] } }, "modifiers": { "m": { "contexts": { "x": [] } } }, "resolutionOrder": [{ "$ref": "#/sets/a" }] }"##,
            code: .invalidValue, at: ##""#/modifiers/m""##, message: "only resolutionOrder may reference a modifier"),
        Case(
            name: "remote source",
            document:
                #"{ "version": "2025.10", "resolutionOrder": [{ "type": "set", "name": "a", "sources": [{ "$ref": "https://example.com/t.json" }] }] }"#,
            code: .forbiddenPath, at: #""https"#, message: "is not supported"),
        Case(
            name: "another version",
            document: #"{ "version": "2026.01", "resolutionOrder": [] }"#,
            code: .invalidValue, at: #""2026.01""#, message: "resolver version the string '2026.01' is not supported"),
        Case(
            name: "default that is no context",
            document:
                #"{ "version": "2025.10", "resolutionOrder": [{ "type": "modifier", "name": "m", "contexts": { "a": [] }, "default": "b" }] }"#,
            code: .invalidValue, at: #""b""#, message: "default the string 'b' is not a context of modifier 'm'"),
        Case(
            name: "inline step without a name",
            document: #"{ "version": "2025.10", "resolutionOrder": [{ "type": "set", "sources": [] }] }"#,
            code: .missingKey, at: #"{ "type""#, message: "an inline set or modifier needs a 'name'"),
    ]

    @Test func contextsOfSeveralModifiersCombineIntoThemesInResolutionOrder() throws {
        let folder = try folder()
        let spec = try Spec(directory: folder.url)
        func card(_ theme: String) throws -> (Color?, Color?, Insets?) {
            let traits = spec.traits(for: "card", theme: theme)
            try #require(traits.count == 3, "no theme \(theme)")
            return (
                (traits[0] as? BackgroundColor)?.color, (traits[1] as? TextColor)?.color,
                (traits[2] as? Padding)?.insets
            )
        }
        let black = Color(hex: "#000000")
        // dark's background; high's text, which comes after dark's in the resolution order.
        #expect(try card("dark+high") == (black, black, Insets(all: 8)))
        #expect(try card("dark+high+compact") == (black, black, Insets(all: 4)))
        #expect(try card("dark+compact") == (black, Color(hex: "#FFFFFF"), Insets(all: 4)))
    }

    @Test func tooManyCombinationsAreRefusedWhereTheResolverStarts() throws {
        let modifiers = (0..<9).map { index in
            #"{ "type": "modifier", "name": "m\#(index)", "contexts": { "a": [], "b": [], "c": [] } }"#
        }
        let document = #"{ "version": "2025.10", "resolutionOrder": [\#(modifiers.joined(separator: ", "))] }"#
        var set = SpecSourceSet()
        try set.set("t.resolver.json", to: Data(document.utf8))
        let error = try #require(Spec.validate(set).first)
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("combine into more than 256 themes"), "\(error)")
        #expect(error.location.line == 1 && error.location.column == 1)
    }

    @Test func aThemeIsExportedWithItsOwnValuesAndReadsBackAsThatTheme() throws {
        let folder = try folder()
        let spec = try Spec(directory: folder.url)
        let dark = try spec.tokensDocument(theme: "dark")
        #expect(dark["color"]?["background"]?.canonicalJSON == #"{"$value":"{color.palette.black}","$type":"color"}"#)
        #expect(spec.tokensDocument["color"]?["background"]?["$value"]?.string == "{color.palette.white}")
        #expect(dark["space"]?["pad"]?.canonicalJSON == spec.tokensDocument["space"]?["pad"]?.canonicalJSON)
        for theme in ["dark", "high", "compact"] {
            var set = SpecSourceSet()
            try set.set("\(theme).tokens.json", to: Data(try spec.tokensDocument(theme: theme).prettyJSON.utf8))
            let readBack = try Spec(sources: set).resolvedVariables()
            #expect(readBack.hasSameContent(as: try spec.resolvedVariables(theme: theme)), "\(theme)")
        }
        #expect(throws: SpecError.self) { try spec.tokensDocument(theme: "dusk") }
    }

    @Test(arguments: cases) func aBadResolverIsALocatedError(_ test: Case) throws {
        var set = SpecSourceSet()
        try set.set("r.resolver.json", to: Data(test.document.utf8))
        let error = try #require(Spec.validate(set).first)
        #expect(error.code == test.code, "\(error)")
        #expect(
            error.location == DesignTokensTests.place(of: test.at, in: test.document, file: "r.resolver.json"),
            "\(error)")
        #expect(error.message.contains(test.message), "\(error)")
    }
}
