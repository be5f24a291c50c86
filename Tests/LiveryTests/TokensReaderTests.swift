import Foundation
import Testing

@testable import Livery

/// The tokens reader takes a document apart as it reads it unless a key may point into it;
/// the JSON reader says whether one may, as it reads.
@Suite struct TokensReaderTests {
    static func notes(_ text: String) throws -> Bool {
        try SpecReader.read(
            Data(text.utf8), format: .json, source: "t.tokens.json", limits: .default,
            noting: TokensReader.pointingKeys
        ).mayHoldNotedKey
    }

    static let pointing: [(document: String, holds: Bool)] = [
        (##"{ "a": { "b": { "c": { "$ref": "#/d" } } }, "d": 1 }"##, true),
        (##"{ "a": [1, [2, { "$ref": "#/b" }]] }"##, true),
        (##"{ "a": { "$extends": "{b}" }, "b": {} }"##, true),
        (##"{ "a": { "\u0024ref": "#/b" } }"##, true),
        (##"{ "a": { "$ext\u0065nds": "{b}" } }"##, true),
        (##"{ "a": { "$value": "$ref", "$description": "$extends" } }"##, false),
        (##"{ "$refs": 1, "$extend": 2, "ref": 3, "$Ref": 4, "extends": 5 }"##, false),
        (##"["$ref", "$extends"]"##, false),
    ]

    /// A key of `$ref` or `$extends` anywhere, however its characters are written, keeps the
    /// document whole; the same words as values, or longer keys, do not.
    @Test(arguments: pointing)
    func notesThePointingKeysWhereverAndHoweverTheyAreWritten(document: String, holds: Bool) throws {
        #expect(try Self.notes(document) == holds)
    }

    /// Every located error case, and documents of every type, read the same taken apart as kept
    /// whole: the same variables, tokens and errors, in the same order and places.
    @Test func takingTheDocumentApartReadsWhatKeepingItWholeReads() throws {
        let documents =
            DesignTokenErrorTests.cases.map(\.document) + [Self.everyKind, Self.figureLike(groups: 4, tokens: 30)]
        var compared = 0
        for document in documents where try !Self.notes(document) {
            let whole = try Self.read(document, keepingItWhole: true)
            let apart = try Self.read(document, keepingItWhole: false)
            #expect(apart.variables == whole.variables, "\(document)")
            #expect(apart.tokens == whole.tokens, "\(document)")
            #expect(apart.errors == whole.errors, "\(document)")
            compared += 1
        }
        #expect(compared >= 15)
    }

    /// What a reader read, as text: each variable and token with its place.
    struct Reading: Equatable {
        var variables: String
        var tokens: [String]
        var errors: [String]
    }

    static func read(_ document: String, keepingItWhole: Bool) throws -> Reading {
        let root = try SpecReader.read(Data(document.utf8), format: .json, source: "t.tokens.json")
        let reader = TokensReader(root: root, pointsIntoItself: keepingItWhole)
        return Reading(
            variables: places(SpecNode(.mapping(reader.variables), at: root.location)),
            tokens: reader.tokens.map {
                "\($0.name) \($0.type.map(\.rawValue) ?? "-") \(places($0.value)) \($0.description ?? "-") "
                    + "\($0.deprecation ?? "-") \($0.extensions.map(places) ?? "-") \($0.keyLocation)"
            },
            errors: reader.errors.map(\.description))
    }

    /// A node as JSON with the place of every value and key.
    static func places(_ node: SpecNode) -> String {
        switch node.value {
        case .mapping(let members):
            "\(node.location){"
                + members.map { "\($0.key)@\($0.keyLocation):\(places($0.value))" }.joined(separator: ",")
                + "}"
        case .sequence(let items): "\(node.location)[" + items.map(places).joined(separator: ",") + "]"
        default: "\(node.location)\(node.canonicalJSON)"
        }
    }

    static let everyKind = #"""
        {
          "color": {
            "$type": "color", "$description": "brand colours",
            "base": { "$value": { "colorSpace": "srgb", "components": [0.1, 0.2, 0.3], "alpha": 0.5, "hex": "#1a334d" } },
            "alias": { "$value": "{color.base}", "$deprecated": "use base" },
            "p3": { "$value": { "colorSpace": "display-p3", "components": [1, 0, 0] } }
          },
          "space": { "$type": "dimension", "small": { "$value": { "value": 4, "unit": "px" } },
                     "rem": { "$value": { "value": 1.5, "unit": "rem" } } },
          "font": { "family": { "$type": "fontFamily", "$value": ["Inter", "sans-serif"] },
                    "weight": { "$type": "fontWeight", "$value": "bold" },
                    "body": { "$type": "typography", "$value": { "fontFamily": "{font.family}",
                      "fontSize": { "value": 16, "unit": "px" }, "fontWeight": 400,
                      "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5 } } },
          "motion": { "$type": "duration", "quick": { "$value": { "value": 200, "unit": "ms" } } },
          "shadow": { "$type": "shadow", "card": { "$value": { "color": "{color.base}",
            "offsetX": { "value": 0, "unit": "px" }, "offsetY": { "value": 2, "unit": "px" },
            "blur": { "value": 4, "unit": "px" }, "spread": { "value": 0, "unit": "px" } } } },
          "line": { "$type": "border", "thin": { "$value": { "color": "{color.base}",
            "width": { "value": 1, "unit": "px" }, "style": "solid" } } },
          "ratio": { "$type": "number", "$value": 1.5, "$extensions": { "org.example": { "kept": [1, 2] } } },
          "bad": { "$type": "colour", "x": { "$value": 1 } },
          "loose": { "$type": "number", "n": 3, "s": "text", "l": [1] }
        }
        """#

    /// Figure 11's shape, small: groups of colours, dimensions, numbers, families and aliases.
    static func figureLike(groups: Int, tokens: Int) -> String {
        let kinds = [
            ("color", #"{ "colorSpace": "srgb", "components": [0.5, 0.25, 1] }"#),
            ("dimension", #"{ "value": 8, "unit": "px" }"#), ("number", "2"), ("fontFamily", #""Inter""#),
            ("color", #""{g0.t0}""#),
        ]
        let body = (0..<groups).map { group in
            let (type, value) = kinds[group % kinds.count]
            let members = (0..<tokens).map { #""t\#($0)": { "$value": \#(value) }"# }.joined(separator: ",\n    ")
            return #""g\#(group)": {\#n    "$type": "\#(type)",\#n    \#(members)\#n  }"#
        }
        return "{\n  " + body.joined(separator: ",\n  ") + "\n}"
    }
}
