import Livery
import Testing

/// `Spec.resolvedVariables(theme:)`: every variable substituted, under a theme's overrides.
@Suite struct ResolvedVariablesTests {
    static let yaml = """
        variables:
          colors: { accent: "#0A84FF", text: "#000000" }
          link: "@colors.accent"
          veil: "~alpha(@colors.text, 0.5)"
          literal: "@@home"
        themes:
          dark: { colors: { accent: "#64D2FF" } }
        specs: {}
        """

    @Test func substitutesReferencesAndFunctionsUnderATheme() throws {
        let spec = try Spec(yaml: Self.yaml, source: "v.yaml")
        let base = try spec.resolvedVariables()
        #expect(base["link"]?.string == "#0A84FF")
        #expect(base["veil"]?.string == "#00000080")
        #expect(base["literal"]?.string == "@home")
        let dark = try spec.resolvedVariables(theme: "dark")
        #expect(dark["link"]?.string == "#64D2FF")
        #expect(dark["colors"]?["text"]?.string == "#000000")
    }

    @Test func aBadVariableNoTraitReadsIsALocatedError() throws {
        let spec = try Spec(yaml: "variables:\n  a: 1\n  b: \"@c\"\nspecs: {}\n", source: "v.yaml")
        #expect(throws: SpecError.self) { try spec.resolvedVariables() }
        let error = try #require(throws: SpecError.self) { try spec.resolvedVariables() }
        #expect(error.code == .unresolvedReference)
        #expect(error.location == SourceLocation(file: "v.yaml", line: 3, column: 6))
    }

    @Test func anUnknownThemeNamesTheKnownOnes() throws {
        let spec = try Spec(yaml: Self.yaml, source: "v.yaml")
        let error = try #require(throws: SpecError.self) { try spec.resolvedVariables(theme: "sepia") }
        #expect(error.description == "<theme>:1:1: error: unknown theme 'sepia'; expected 'dark'")
    }
}
