import Foundation
import Livery
import Testing

/// `Spec.inspection()`: every look's traits and variables, with the places they were written.
@Suite struct SpecInspectionTests {
    static let yaml = """
        variables:
          colors: { accent: "#0A84FF", text: "#1C1C1E" }
          metrics: { radius: 12, padding: { top: 1, left: 2, bottom: 3, right: 4 } }
          family: Inter
        themes:
          dark:
            colors: { accent: "#64D2FF" }
        specs:
          text.base:
            - { type: Font, name: "@family", color: "@colors.text" }
          card:
            - { type: BackgroundColor, color: "~alpha(@colors.accent, 0.5)" }
            - { type: Inherit, traits: [text.base] }
            - { type: CornerRadius, radius: "@metrics.radius" }
        """

    func json(_ inspection: SpecInspection) throws -> [String: Any] {
        let data = try JSONEncoder().encode(inspection)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func variablesHaveKindsPlacesAndAValuePerLook() throws {
        let inspection = try Spec(yaml: Self.yaml, source: "card.yaml").inspection()
        #expect(inspection.looks == [nil, "dark"])
        let byPath = Dictionary(uniqueKeysWithValues: inspection.variables.map { ($0.path, $0) })
        #expect(
            inspection.variables.map(\.path) == [
                "colors.accent", "colors.text", "metrics.radius", "metrics.padding", "family",
            ])
        let accent = try #require(byPath["colors.accent"])
        #expect(accent.kind == .color)
        #expect(accent.place == SpecInspection.Place(SourceLocation(file: "card.yaml", line: 2, column: 21)))
        #expect(accent.values.map(\.string) == ["#0A84FF", "#64D2FF"])
        #expect(byPath["metrics.radius"]?.kind == .number)
        #expect(byPath["metrics.padding"]?.kind == .insets)
        #expect(byPath["family"]?.kind == .string)
        let dark = try #require(inspection.themes.first)
        #expect(dark.name == "dark")
        #expect(dark.overrides.map(\.path) == ["colors.accent"])
        #expect(dark.overrides.first?.place.line == 7)
    }

    /// A reference runs from its `@` over letters, digits, `.`, `_` and `-`, in ASCII text (read
    /// byte by byte) as in any other.
    @Test func referencesEndWhereTheirPathsDo() throws {
        let yaml = """
            variables:
              ink: { light-1: "#111111" }
              paper_2: "#EEEEEE"
              grün: "#00FF00"
            specs:
              card:
                - { type: BackgroundColor, color: "~mix(@ink.light-1,@paper_2, 0.5)" }
                - { type: TextColor, color: "~mix(@grün, @ink.light-1, 0.25)" }
                - { type: Set, values: { tint: "@paper_2" } }
            """
        let card = try #require(try Spec(yaml: yaml, source: "card.yaml").inspection().identifiers.first)
        let references = card.traits[0].map(\.references)
        #expect(references == [["ink.light-1", "paper_2"], ["grün", "ink.light-1"], ["paper_2"]])
    }

    @Test func traitsAreFlattenedWithTheirPlacesReferencesAndResolvedValues() throws {
        let inspection = try Spec(yaml: Self.yaml, source: "card.yaml").inspection()
        let card = try #require(inspection.identifiers.first { $0.name == "card" })
        #expect(card.traits.count == 2)
        let base = card.traits[0]
        #expect(base.map(\.type) == ["BackgroundColor", "Font", "CornerRadius"])
        #expect(base[0].place == SpecInspection.Place(SourceLocation(file: "card.yaml", line: 12, column: 7)))
        #expect(base[0].references == ["colors.accent"])
        #expect(base[0].values.members?.first?.value.string == "#0A84FF80")
        #expect(base[0].source.members?.first?.value.string == "~alpha(@colors.accent, 0.5)")
        #expect(base[0].inheritedFrom == nil)
        #expect(
            base[0].fieldPlaces == [
                "color": SpecInspection.Place(SourceLocation(file: "card.yaml", line: 12, column: 39))
            ])
        #expect(base[1].inheritedFrom == "text.base")
        #expect(base[1].references == ["family", "colors.text"])
        #expect(base[1].place.line == 10)
        #expect(card.traits[1][0].values.members?.first?.value.string == "#64D2FF80")
        #expect(base[2].values.members?.first?.value.description == "12")
    }

    @Test func encodesPlacesAndLooksAsPlainJSON() throws {
        let object = try json(try Spec(yaml: Self.yaml, source: "card.yaml").inspection())
        let looks = try #require(object["looks"] as? [Any])
        #expect(looks.count == 2)
        #expect(looks[0] is NSNull)
        let identifiers = try #require(object["identifiers"] as? [[String: Any]])
        let place = try #require(identifiers.first?["place"] as? [String: Any])
        #expect(place["file"] as? String == "card.yaml")
        #expect(place["line"] as? Int == 9)
        #expect(place["column"] as? Int == 3)
    }
}
