import LiveryTesting
import Testing

@testable import Livery

/// Number variables in the stylesheet: a length is written in pixels, so that a page can write
/// `font-size: var(--type-body)`; any other number stays unitless (``LengthVariables``).
@Suite struct StyleSheetLengthTests {
    @Test func aNumberEveryTraitUsesAsALengthIsWrittenInPixelsAndOthersStayNumbers() throws {
        let text = try Spec(
            yaml: """
                variables:
                  type: { body: 15, small: 12.5 }
                  space: { m: 8 }
                  pad: { top: 1, left: 2, bottom: 3, right: 4 }
                  opacity: { muted: 0.5 }
                  weight: { bold: 600 }
                  mixed: 4
                  ratio: 1.25
                  accent: "#0A84FF"
                themes:
                  large: { type: { body: 19 } }
                specs:
                  card.title:
                    - { type: Font, size: "@type.body", weight: "@weight.bold" }
                  card.note:
                    - { type: Font, size: "@type.small" }
                  card:
                    - { type: CornerRadius, radius: "@space.m" }
                    - { type: Padding, insets: "@pad" }
                    - { type: Opacity, opacity: "@opacity.muted" }
                    - { type: Border, color: "@accent", width: "@mixed" }
                    - { type: Constraint, constant: "@mixed" }
                """
        ).styleSheet().text
        #expect(
            text.hasPrefix(
                """
                :root {
                  --type-body: 15px;
                  --type-small: 12.5px;
                  --space-m: 8px;
                  --pad-top: 1px;
                  --pad-left: 2px;
                  --pad-bottom: 3px;
                  --pad-right: 4px;
                  --opacity-muted: 0.5;
                  --weight-bold: 600;
                  --mixed: 4;
                  --ratio: 1.25;
                  --accent: #0A84FF;
                }
                :root[data-livery-theme="large"] {
                  --type-body: 19px;
                }

                """), "\(text)")
    }

    @Test func aDimensionTokenIsALengthAndAnotherTypeIsWhatItSays() throws {
        let folder = try TemporarySpecFolder()
        try folder.write(
            "tokens/brand.tokens.json",
            """
            {
              "space": {
                "$type": "dimension",
                "small": { "$value": { "value": 8, "unit": "px" } }
              },
              "gap": { "$value": "{space.small}" },
              "ratio": { "$type": "number", "$value": 2 }
            }
            """)
        try folder.write("card.yaml", "specs:\n  card:\n    - { type: CornerRadius, radius: \"@ratio\" }\n")
        let text = try Spec(directory: folder.url).styleSheet().text
        #expect(text.contains("  --space-small: 8px;\n"), "\(text)")
        #expect(text.contains("  --gap: 8px;\n"), "\(text)")  // an alias, its target's type
        // A number token used as a radius is still the number its type says.
        #expect(text.contains("  --ratio: 2;\n"), "\(text)")
    }
}
