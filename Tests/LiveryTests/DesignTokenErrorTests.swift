import Foundation
import Livery
import LiveryTesting
import Testing

/// A document with one located error: the text its place points at, its code and message.
struct LocatedErrorCase: CustomTestStringConvertible, Sendable {
    var name: String
    var document: String
    var code: SpecError.Code
    /// The text whose first character the error points at.
    var at: String
    var message: String
    var testDescription: String { name }
}

/// Located errors in design tokens documents, with the spec's own codes.
@Suite struct DesignTokenErrorTests {
    typealias Case = LocatedErrorCase

    static let cases: [Case] = [
        Case(
            name: "alias to nothing",
            document: #"{ "a": { "$type": "color", "$value": "{b.c}" } }"#,
            code: .unresolvedReference, at: #""{b.c}""#, message: "unknown variable '@b.c'"),
        Case(
            name: "cycle",
            document: #"{ "n": { "$type": "number", "a": { "$value": "{n.b}" }, "b": { "$value": "{n.a}" } } }"#,
            code: .cycle, at: #""{n.a}""#, message: "reference cycle: @n.a ("),
        Case(
            name: "unknown $type",
            document: #"{ "a": { "$type": "colour", "$value": 1 } }"#,
            code: .invalidValue, at: #""colour""#, message: "unknown token type 'colour'; did you mean 'color'?"),
        Case(
            name: "no type at all",
            document: #"{ "a": { "$value": 1 } }"#,
            code: .missingKey, at: "1 }", message: "token 'a' has no $type and no group above it has one"),
        Case(
            name: "component out of range",
            document: #"{ "a": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0, 1.2, 0] } } }"#,
            code: .invalidValue, at: "1.2", message: "green component 1.2 is out of range for 'srgb': expected 0…1"),
        Case(
            name: "colour space Livery does not convert",
            document:
                #"{ "a": { "$type": "color", "$value": { "colorSpace": "rec2020", "components": [0.7, 0.1, 0.2] } } }"#,
            code: .invalidValue, at: #""rec2020""#, message: "colour space 'rec2020' is not converted to sRGB by Livery"
        ),
        Case(
            name: "hue at 360",
            document: #"{ "a": { "$type": "color", "$value": { "colorSpace": "hsl", "components": [360, 0, 0] } } }"#,
            code: .invalidValue, at: "360", message: "hue component 360 is out of range for 'hsl'"),
        Case(
            name: "bad hex fallback",
            document:
                ##"{ "a": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000" } } }"##,
            code: .invalidValue, at: ##""#000""##, message: "expected a 6-digit CSS hex colour"),
        Case(
            name: "dimension in em",
            document: #"{ "a": { "$type": "dimension", "$value": { "value": 1, "unit": "em" } } }"#,
            code: .invalidValue, at: #""em""#, message: "expected the unit 'px' or 'rem', found the string 'em'"),
        Case(
            name: "weight in another case",
            document: #"{ "a": { "$type": "fontWeight", "$value": "Bold" } }"#,
            code: .invalidValue, at: #""Bold""#, message: "unknown font weight 'Bold'"),
        Case(
            name: "shadow missing spread",
            document:
                #"{ "a": { "$type": "shadow", "$value": { "color": "{c}", "offsetX": "{c}", "offsetY": "{c}", "blur": "{c}" } } }"#,
            code: .missingKey, at: #"{ "color""#, message: "shadow has no 'spread'"),
        Case(
            name: "pointer to nothing",
            document: ##"{ "a": { "$type": "number", "$value": { "$ref": "#/b/$value" } } }"##,
            code: .unresolvedReference, at: ##""#/b/$value""##, message: "$ref '#/b/$value' names nothing"),
        Case(
            name: "pointer cycle",
            document: ##"{ "a": { "$type": "number", "$value": { "$ref": "#/a/$value" } } }"##,
            code: .cycle, at: ##""#/a/$value""##, message: "$ref cycle: #/a/$value → #/a/$value"),
        Case(
            name: "pointer into another file",
            document: ##"{ "a": { "$type": "number", "$value": { "$ref": "base.tokens.json#/b/$value" } } }"##,
            code: .forbiddenPath, at: ##""base.tokens.json#/b/$value""##,
            message: "the Format Module's $ref is a JSON Pointer within its own document"),
        Case(
            name: "token in another file's place",
            document: ##"{ "a": { "$ref": "base.tokens.json#/b" } }"##,
            code: .forbiddenPath, at: ##""base.tokens.json#/b""##, message: "is not a pointer into this document"),
        Case(
            name: "name with a dot",
            document: #"{ "a.b": { "$type": "number", "$value": 1 } }"#,
            code: .invalidValue, at: #""a.b""#, message: "'a.b' is not a token or group name"),
        Case(
            name: "token that is also a group",
            document: #"{ "a": { "$type": "number", "$value": 1, "b": { "$value": 2 } } }"#,
            code: .unknownKey, at: #""b""#, message: "a token cannot hold groups or tokens: 'b'"),
        Case(
            name: "alias of another type",
            document:
                #"{ "n": { "$type": "number", "$value": 1 }, "c": { "$type": "color", "$value": "{n}" } }"#,
            code: .typeMismatch, at: #""{n}""#, message: "token 'c' is a color but its value '{n}' is a number"),
        Case(
            name: "alias of another type, reached through a $ref",
            document: ##"""
                { "n": { "$type": "number", "$value": 1 }, "m": { "$value": "{n}" },
                  "c": { "$type": "color", "$value": { "$ref": "#/m/$value" } } }
                """##,
            code: .typeMismatch, at: ##"{ "$ref": "#/m"##,
            message: "token 'c' is a color but its value '{n}' is a number"),
        Case(
            name: "$ref after an alias in the same value",
            document: ##"""
                { "f": { "$type": "fontFamily", "$value": "Inter" },
                  "a": { "$type": "fontFamily", "$value": ["{f}", { "$ref": "#/nope" }] } }
                """##,
            code: .unresolvedReference, at: ##""#/nope""##, message: "$ref '#/nope' names nothing"),
        Case(
            name: "alias to a token whose variable is an expression reading nothing",
            document: #"""
                { "base": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [1, 0, 0] },
                  "$extensions": { "dev.livery": { "expression": "~alpha(@nowhere, 0.5)" } } },
                  "a": { "$type": "color", "$value": "{base}" } }
                """#,
            code: .unresolvedReference, at: #"{ "colorSpace""#, message: "unknown variable '@nowhere'"),
        Case(
            name: "alias to a list that reads nothing",
            document: #"""
                { "list": { "$value": ["@nowhere"], "$extensions": { "dev.livery": { "type": "list" } } },
                  "a": { "$value": "{list}" } }
                """#,
            code: .unresolvedReference, at: #""@nowhere""#, message: "unknown variable '@nowhere'"),
        Case(
            name: "group extension cycle",
            document: #"{ "a": { "$extends": "{b}" }, "b": { "$extends": "{a}" } }"#,
            code: .cycle, at: #""{a}""#, message: "group extension cycle"),
    ]

    @Test(arguments: cases) func isALocatedError(_ test: Case) throws {
        let errors = Self.errors(test.document)
        let error = try #require(errors.first, "no error for \(test.name)")
        #expect(error.code == test.code, "\(error)")
        #expect(
            error.location == DesignTokensTests.place(of: test.at, in: test.document, file: "t.tokens.json"), "\(error)"
        )
        #expect(error.message.contains(test.message), "\(error)")
    }

    @Test func aBadTokensFileNeverReplacesAGoodSpec() throws {
        let folder = try TemporarySpecFolder()
        try folder.write("t.tokens.json", #"{ "a": { "$type": "number", "$value": 1 } }"#)
        _ = try Spec(directory: folder.url)
        try folder.write("t.tokens.json", #"{ "a": { "$type": "number", "$value": "one" } }"#)
        #expect(throws: SpecError.self) { try Spec(directory: folder.url) }
    }

    /// Token files combine through aliases, which reach every file of the folder; a `$ref` into
    /// another file is refused even when the file is there (the Format Module's `$ref` stays
    /// within its document).
    @Test func anAliasReachesAnotherTokensFileAndAPointerDoesNot() throws {
        var set = SpecSourceSet()
        try set.set("base.tokens.json", to: Data(#"{ "b": { "$type": "number", "$value": 2 } }"#.utf8))
        try set.set("t.tokens.json", to: Data(#"{ "c": { "$type": "number", "$value": "{b}" } }"#.utf8))
        #expect(try Spec(sources: set).resolvedVariables()["c"]?.canonicalJSON == "2")

        let document = ##"{ "a": { "$type": "number", "$value": { "$ref": "base.tokens.json#/b/$value" } } }"##
        try set.set("t.tokens.json", to: Data(document.utf8))
        let errors = Spec.validate(set)
        #expect(errors.map(\.code) == [.forbiddenPath], "\(errors)")
        #expect(
            errors.first?.location
                == DesignTokensTests.place(of: ##""base.tokens.json#"##, in: document, file: "t.tokens.json"))
    }

    /// A token name defined in two files is one error, the duplicate; the checks of aliases
    /// follow the token the table keeps (the later one, a literal here), not the earlier alias.
    @Test func aTokenDefinedTwiceIsCheckedAsTheTableKeepsIt() throws {
        var set = SpecSourceSet()
        try set.set("a.tokens.json", to: Data(#"{ "x": { "$type": "number", "$value": "{nowhere}" } }"#.utf8))
        try set.set("b.tokens.json", to: Data(#"{ "x": { "$type": "number", "$value": 1 } }"#.utf8))
        let errors = Spec.validate(set)
        #expect(errors.map(\.code) == [.duplicateDefinition], "\(errors)")
    }

    static func errors(_ document: String) -> [SpecError] {
        var set = SpecSourceSet()
        try? set.set("t.tokens.json", to: Data(document.utf8))
        return Spec.validate(set)
    }
}
