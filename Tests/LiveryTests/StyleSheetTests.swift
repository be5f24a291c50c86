import Testing

@testable import Livery

/// The spec as CSS (`Spec.styleSheet(theme:)`): custom properties, one rule per identifier,
/// themes, each built-in trait's CSS form, and the escaping that keeps every spec value inside
/// its declaration.
@Suite struct StyleSheetTests {
    static let themed = """
        variables:
          colors: { accent: "#0A84FF", surface: "#FFFFFF" }
          family: Inter
          gap: 4
        themes:
          dark: { colors: { accent: "#64D2FF" } }
        specs:
          card.title:
            - { type: Font, name: "@family", size: 18, weight: semibold, color: "#1C1C1E" }
          card:
            - { type: BackgroundColor, color: "~mix(@colors.accent, @colors.surface, 0.5)" }
            - { type: Padding, insets: { top: 1, left: 2, bottom: 3, right: 4 } }
        """

    @Test func variablesAreCustomPropertiesOnTheRootAndThemesOverrideOnlyWhatChanges() throws {
        let text = try Spec(yaml: Self.themed).styleSheet().text
        #expect(
            text.hasPrefix(
                """
                :root {
                  --colors-accent: #0A84FF;
                  --colors-surface: #FFFFFF;
                  --family: "Inter";
                  --gap: 4;
                }
                :root[data-livery-theme="dark"] {
                  --colors-accent: #64D2FF;
                }

                """))
    }

    @Test func anIdentifierTheThemesLeaveAloneHasOneRule() throws {
        let text = try Spec(yaml: Self.themed).styleSheet().text
        #expect(
            text.contains(
                """
                [data-livery~="card.title"] {
                  font-family: "Inter", system-ui;
                  font-size: 18px;
                  font-weight: 600;
                  color: #1C1C1E;
                }

                """))
    }

    @Test func aThemedIdentifierKeepsItsBaseRuleAndEachThemeWritesOnlyWhatItChanges() throws {
        let spec = try Spec(yaml: Self.themed)
        // ~mix written out as a Swift target gets it under each look.
        func mixed(_ theme: String?) throws -> Color {
            try #require(spec.traits(for: "card", theme: theme).first as? BackgroundColor).color
        }
        #expect(try mixed(nil) != mixed("dark"))
        #expect(
            try spec.styleSheet().text.hasSuffix(
                """
                [data-livery~="card"] {
                  background-color: \(mixed(nil));
                  padding: 1px 4px 3px 2px;
                }
                :where(:root[data-livery-theme="dark"]) [data-livery~="card"] {
                  background-color: \(mixed("dark"));
                }

                """))
    }

    @Test func aDeclarationAThemeDoesNotMakeStaysOutOfThatTheme() throws {
        let spec = try Spec(
            yaml: """
                variables: { flags: { hidden: true }, size: 12 }
                themes:
                  dark: { flags: { hidden: false } }
                  large: { size: 20 }
                specs:
                  badge:
                    - { type: Hidden, hidden: "@flags.hidden" }
                    - { type: Opacity, opacity: 0.5 }
                    - { type: Font, size: "@size" }
                """)
        #expect(
            try spec.styleSheet().text.hasSuffix(
                """
                [data-livery~="badge"] {
                  opacity: 0.5;
                  font-size: 12px;
                }
                :where(:root:not([data-livery-theme="dark"])) [data-livery~="badge"] {
                  display: none;
                }
                :where(:root[data-livery-theme="large"]) [data-livery~="badge"] {
                  font-size: 20px;
                }

                """))
    }

    @Test func oneThemeAloneHasNoThemeSelectors() throws {
        let text = try Spec(yaml: Self.themed).styleSheet(theme: "dark").text
        #expect(!text.contains("data-livery-theme"))
        #expect(text.contains("--colors-accent: #64D2FF;"))
        let dark = try #require(Spec(yaml: Self.themed).traits(for: "card", theme: "dark").first as? BackgroundColor)
        #expect(text.contains("[data-livery~=\"card\"] {\n  background-color: \(dark.color);"))
        #expect(throws: SpecError.self) { try Spec(yaml: Self.themed).styleSheet(theme: "dusk") }
    }

    @Test func eachBuiltInTraitHasItsCSSForm() throws {
        let spec = try Spec(
            yaml: """
                specs:
                  a:
                    - { type: TextColor, color: "rgba(255, 0, 0, 0.5)" }
                    - { type: CornerRadius, radius: 2.5 }
                    - { type: Border, color: "#010203", width: 1 }
                    - { type: Border, color: "#040506" }
                    - { type: Opacity, opacity: 0.25 }
                    - { type: Hidden, hidden: true }
                    - { type: DropShadow, color: "#102030", offset: { width: 1, height: -2 }, opacity: 0.5, radius: 3 }
                    - { type: Font, name: System }
                    - { type: Constraint, constant: 12 }
                    - { type: Set, values: { retries: 5, label: "hi", on: true, steps: [1, 2] } }
                  b:
                    - { type: Hidden, hidden: false }
                """)
        #expect(
            try spec.styleSheet().text == """
                [data-livery~="a"] {
                  color: #FF000080;
                  border-radius: 2.5px;
                  border-width: 1px;
                  border-style: solid;
                  border-color: #040506;
                  opacity: 0.25;
                  display: none;
                  box-shadow: 1px -2px 3px #10203080;
                  font-family: system-ui;
                  --constant: 12;
                  --retries: 5;
                  --label: "hi";
                  --on: true;
                  --steps: 1 2;
                }

                """)
    }

    @Test(arguments: [
        ("card.title", #"card\.title"#), ("1a", #"\31 a"#), ("-", #"\-"#), ("-1", #"-\31 "#), ("--x", "--x"),
        ("a b", #"a\ b"#), ("a\u{0}b", "a\u{FFFD}b"), ("a\nb", #"a\a b"#), ("é_-", "é_-"),
        ("</style>", #"\3c \/style\>"#),
    ])
    func identifiersAreSerialisedAsCSSOMSays(text: String, expected: String) {
        #expect(CSSText.identifier(text) == expected)
    }

    @Test(arguments: [
        ("plain", #""plain""#), (#"a"b\c"#, #""a\"b\\c""#), ("line\nbreak\r", #""line\a break\d ""#),
        ("nul\u{0}", "\"nul\u{FFFD}\""), ("</style>", #""\3c /style>""#), ("\u{7F}", #""\7f ""#),
    ])
    func stringsAreSerialisedAsCSSOMSays(text: String, expected: String) {
        #expect(CSSText.string(text) == expected)
    }

    @Test func aHostileValueStaysOneString() throws {
        let hostile = #"x"; } body { display: none } .y {"#
        let spec = try Spec(
            json: """
                {"specs": {"a": [{"type": "Font", "name": \(jsonString(hostile))}],
                           \(jsonString(hostile)): [{"type": "Opacity", "opacity": 1}]},
                 "variables": {\(jsonString("*/ body {")): \(jsonString(hostile))}}
                """)
        let text = try spec.styleSheet().text
        #expect(text.contains(#"  font-family: "x\"; } body { display: none } .y {", system-ui;"#))
        #expect(text.contains(#"[data-livery~="x\"; } body { display: none } .y {"] {"#))
        #expect(text.contains(#"  --\*\/\ body\ \{: "x\"; } body { display: none } .y {";"#))
    }

    @Test func aNumberThatIsNotFiniteIsStillOneValue() {
        #expect(CSSValue.pixels(.infinity).cssText == "calc(infinity)px")
        #expect(CSSText.number(-.infinity) == "calc(-infinity)")
        #expect(CSSText.number(.nan) == "calc(NaN)")
        #expect(CSSText.number(1e300) == "1e+300")
    }

    @Test func aTraitWithNoCSSFormIsNamedNotDropped() throws {
        let registry = TraitRegistry()
        try registry.register(Blink.self)
        try registry.register(Glow.self)
        let spec = try Spec(
            yaml: """
                specs:
                  cursor:
                    - { type: Blink, interval: 0.5 }
                    - { type: Glow, strength: 2 }
                    - { type: Opacity, opacity: 0.5 }
                """, registry: registry)
        let styleSheet = try spec.styleSheet()
        #expect(styleSheet.traitTypesWithoutCSS == ["Blink"])
        #expect(
            styleSheet.text == """
                /* trait types with no CSS form, not drawn here: Blink */
                [data-livery~="cursor"] {
                  --glow-strength: 2;
                  opacity: 0.5;
                }

                """)
    }

    @Test func anIdentifierUsingAnUnknownTraitTypeIsLeftOutAndNamed() throws {
        let spec = try Spec(
            yaml: """
                specs:
                  badge: [{ type: Confetti }, { type: Opacity, opacity: 0.5 }]
                  card: [{ type: Opacity, opacity: 1 }]
                """, unknownTraits: .skipIdentifier)
        let styleSheet = try spec.styleSheet()
        #expect(styleSheet.skippedIdentifiers.map(\.identifier) == ["badge"])
        #expect(
            styleSheet.text.hasPrefix(
                "/* left out, using a trait type this registry does not know: badge (Confetti) */\n"))
        #expect(!styleSheet.text.contains("badge\"]"))
    }

    private func jsonString(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// A custom trait that opts in to CSS.
struct Glow: CSSTrait {
    static let typeName = "Glow"
    var strength: Double
    func apply(to target: AnyObject) throws -> Reversal<AnyObject> { .none }
    var cssDeclarations: [CSSDeclaration] { [.custom("glow-strength", .number(strength))] }
}
