import Foundation
import Livery
import LiveryTesting
import Testing

/// Design tokens documents (Format Module 2025.10) read as spec sources: every type, aliases,
/// `$ref` pointers, groups' `$type`, `$root`, `$extends` and deprecated tokens, written anew
/// after the module's examples.
@Suite struct DesignTokensTests {
    static let document = """
        {
          "color": {
            "$type": "color",
            "$description": "Brand colours",
            "brand": {
              "$root": { "$value": { "colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc" } },
              "primary": {
                "$value": { "colorSpace": "srgb", "components": [1, 0, 0.5], "alpha": 1 },
                "$description": "Buttons and links",
                "$extensions": { "org.example.tool": { "locked": true } }
              },
              "veil": { "$value": { "colorSpace": "srgb", "components": [0, 0, 0], "alpha": 0.5 } },
              "soft": { "$value": { "colorSpace": "hsl", "components": [120, 100, 25] } },
              "linear": { "$value": { "colorSpace": "srgb-linear", "components": [0.2159, 0, 1] } },
              "paper": { "$value": { "colorSpace": "hwb", "components": ["none", 100, 0] } }
            },
            "link": { "$value": "{color.brand.primary}" },
            "visited": { "$value": "{color.link}" },
            "legacy": { "$value": "{color.brand.$root}", "$deprecated": "use {color.brand.primary}" },
            "blueOnly": {
              "$value": {
                "colorSpace": "srgb",
                "components": [0, 0, { "$ref": "#/color/brand/$root/$value/components/2" }]
              }
            }
          },
          "space": {
            "$type": "dimension",
            "small": { "$value": { "value": 8, "unit": "px" } },
            "large": { "$value": { "value": 1.5, "unit": "rem" } },
            "same": { "$ref": "#/space/small" }
          },
          "font": {
            "family": { "$type": "fontFamily", "$value": ["Inter", "Helvetica", "sans-serif"] },
            "serif": { "$type": "fontFamily", "$value": "Georgia" },
            "bold": { "$type": "fontWeight", "$value": "bold" },
            "book": { "$type": "fontWeight", "$value": 350 },
            "ratio": { "$type": "number", "$value": 1.25 }
          },
          "motion": {
            "quick": { "$type": "duration", "$value": { "value": 150, "unit": "ms" } },
            "ease": { "$type": "cubicBezier", "$value": [0.5, 0, 1, 1] },
            "fade": {
              "$type": "transition",
              "$value": { "duration": "{motion.quick}", "delay": { "value": 0, "unit": "s" }, "timingFunction": "{motion.ease}" }
            }
          },
          "line": {
            "dashed": { "$type": "strokeStyle", "$value": "dashed" },
            "dots": { "$type": "strokeStyle", "$value": { "dashArray": [{ "value": 2, "unit": "px" }, "{space.small}"], "lineCap": "round" } }
          },
          "border": {
            "$type": "border",
            "card": { "$value": { "color": "{color.brand.primary}", "width": { "value": 1, "unit": "px" }, "style": "{line.dashed}" } }
          },
          "shadow": {
            "$type": "shadow",
            "card": {
              "$value": {
                "color": "{color.brand.veil}", "offsetX": { "value": 0, "unit": "px" }, "offsetY": "{space.small}",
                "blur": { "value": 0.25, "unit": "rem" }, "spread": { "value": 0, "unit": "px" }
              }
            },
            "glow": {
              "$value": {
                "color": "{color.brand.veil}", "offsetX": { "value": 0, "unit": "px" }, "offsetY": { "value": 0, "unit": "px" },
                "blur": { "value": 4, "unit": "px" }, "spread": { "value": 2, "unit": "px" }
              }
            }
          },
          "gradient": {
            "$type": "gradient",
            "fade": { "$value": [ { "color": "{color.brand.primary}", "position": 0 }, { "color": "{color.brand.veil}", "position": 1 } ] }
          },
          "type": {
            "body": {
              "$type": "typography",
              "$value": {
                "fontFamily": "{font.family}", "fontSize": { "value": 1, "unit": "rem" }, "fontWeight": 400,
                "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5
              }
            }
          },
          "button": {
            "$type": "color",
            "fill": { "$value": { "colorSpace": "srgb", "components": [0, 0, 1] } },
            "text": { "$value": { "colorSpace": "srgb", "components": [1, 1, 1] } }
          },
          "button-primary": {
            "$extends": "{button}",
            "fill": { "$value": { "colorSpace": "srgb", "components": [1, 0, 0] } }
          }
        }
        """

    static let spec = """
        specs:
          card:
            - { type: BackgroundColor, color: "@color.link" }
            - "@shadow.card"
            - "@border.card"
          card.title:
            - "@type.body"
            - { type: Font, weight: "@font.bold" }
          legacy:
            - { type: TextColor, color: "@color.legacy" }
        """

    private func load() throws -> Spec {
        let folder = try TemporarySpecFolder()
        try folder.write("tokens/brand.tokens.json", Self.document)
        try folder.write("card.yaml", Self.spec)
        return try Spec(directory: folder.url)
    }

    @Test func everyTypeBecomesTheVariableItsLiveryValueExpects() throws {
        let variables = try load().resolvedVariables()
        func value(_ path: String) -> String? {
            var node: SpecNode? = variables
            for part in path.split(separator: ".") { node = node?[String(part)] }
            return node?.canonicalJSON
        }
        #expect(value("color.brand.$root") == ##""#0066CC""##)
        #expect(value("color.brand.primary") == ##""#FF0080""##)
        #expect(value("color.brand.veil") == ##""#00000080""##)
        #expect(value("color.brand.soft") == ##""#008000""##)
        #expect(value("color.brand.linear") == ##""#8000FF""##)
        #expect(value("color.brand.paper") == ##""#FFFFFF""##)
        #expect(value("color.visited") == ##""#FF0080""##)
        #expect(value("color.blueOnly") == ##""#0000CC""##)
        #expect(value("space.small") == "8")
        #expect(value("space.large") == "24")
        #expect(value("space.same") == "8")
        #expect(value("font.family") == #""Inter""#)
        #expect(value("font.bold") == "700")
        #expect(value("font.book") == "350")
        #expect(value("font.ratio") == "1.25")
        #expect(value("motion.quick") == "0.15")
        #expect(value("motion.fade") == #"{"duration":0.15,"delay":0,"timingFunction":[0.5,0,1,1]}"#)
        #expect(value("line.dots") == #"{"dashArray":[2,8],"lineCap":"round"}"#)
        #expect(value("border.card") == ##"{"type":"Border","color":"#FF0080","width":1}"##)
        #expect(
            value("shadow.card")
                == ##"{"type":"DropShadow","color":"#00000080","offset":{"width":0,"height":8},"radius":4}"##)
        #expect(value("gradient.fade") == ##"[{"color":"#FF0080","position":0},{"color":"#00000080","position":1}]"##)
        #expect(value("type.body") == #"{"type":"Font","name":"Inter","size":16,"weight":400}"#)
        #expect(value("button-primary.fill") == ##""#FF0000""##)
        #expect(value("button-primary.text") == ##""#FFFFFF""##)
    }

    @Test func tokensFeedTraitsWhereTheirLiveryValuesAreExpected() throws {
        let spec = try load()
        let card = spec.traits(for: "card")
        #expect((card[0] as? BackgroundColor)?.color == Color(hex: "#FF0080"))
        let shadow = try #require(card[1] as? DropShadow)
        #expect(
            shadow.color == Color(hex: "#00000080") && shadow.offset == Size(width: 0, height: 8) && shadow.radius == 4)
        let border = try #require(card[2] as? Border)
        #expect(border.color == Color(hex: "#FF0080") && border.width == 1)
        let title = spec.traits(for: "card.title")
        let font = try #require(title[0] as? FontTrait)
        #expect(font.name == "Inter" && font.size == 16 && font.weight == .regular)
        #expect((title[1] as? FontTrait)?.weight == .bold)
    }

    @Test func tokensKeepTheirPlaceDescriptionAndExtensions() throws {
        let spec = try load()
        let primary = try #require(spec.token(named: "color.brand.primary"))
        #expect(primary.type == .color)
        #expect(primary.description == "Buttons and links")
        #expect(primary.extensions?.canonicalJSON == #"{"org.example.tool":{"locked":true}}"#)
        #expect(primary.location == Self.place(of: #"{ "colorSpace": "srgb", "components": [1, 0, 0.5]"#))
        #expect(spec.token(named: "color.link")?.type == .color, "a group's $type reaches its tokens")
        #expect(spec.token(named: "font.family")?.value.canonicalJSON == #"["Inter","Helvetica","sans-serif"]"#)
    }

    @Test func aDeprecatedTokenWarnsWhereItIsUsed() throws {
        let spec = try load()
        let warning = try #require(spec.warnings.first)
        #expect(spec.warnings.count == 1)
        #expect(warning.location.file == "card.yaml")
        #expect(warning.location.line == 10)
        #expect(
            warning.message.hasPrefix(
                "'@color.legacy' is deprecated: use {color.brand.primary} (defined at tokens/brand.tokens.json:"))
    }

    /// The place of the first occurrence of `text` in the document, as the reader counts it.
    static func place(
        of text: String, in document: String = document, file: String = "tokens/brand.tokens.json"
    )
        -> Livery.SourceLocation
    {
        let before = document.components(separatedBy: text)[0]
        let lines = before.components(separatedBy: "\n")
        return Livery.SourceLocation(file: file, line: lines.count, column: lines.last!.unicodeScalars.count + 1)
    }
}
