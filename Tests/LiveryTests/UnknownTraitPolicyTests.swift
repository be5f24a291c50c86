import Foundation
import Livery
import LiveryTestSupport
import LiveryTesting
import Testing

/// ``UnknownTraitPolicy``: what reading and loading do with a trait type the registry lacks.
@Suite struct UnknownTraitPolicyTests {
    private static let first = """
        specs:
          box: [{ type: CornerRadius, radius: 4 }]
          badge: [{ type: CornerRadius, radius: 2 }]
        """
    private static let withSparkle = """
        specs:
          box: [{ type: CornerRadius, radius: 8 }]
          badge:
            - { type: CornerRadius, radius: 9 }
            - { type: Sparkle, level: 0.5 }
          shiny: [{ type: Inherit, traits: [badge] }]
        """

    private func skipping(_ yaml: String) throws -> Spec {
        try Spec(yaml: yaml, source: "card.yaml", unknownTraits: .skipIdentifier)
    }

    @Test func eachIdentifierReachingAnUnknownTypeIsSkippedWithThePlaceOfTheType() throws {
        let spec = try skipping(Self.withSparkle)
        let place = SourceLocation(file: "card.yaml", line: 5, column: 15)
        #expect(
            spec.skippedIdentifiers() == [
                SkippedIdentifier(identifier: "badge", traitType: "Sparkle", location: place),
                SkippedIdentifier(identifier: "shiny", traitType: "Sparkle", location: place),
            ])
        #expect(
            "\(spec.skippedIdentifiers()[0])"
                == "card.yaml:5:15: warning: 'badge' kept on its last good traits: unknown trait type 'Sparkle'")
    }

    @Test func theDefaultRejectsTheWholeSpecAtTheUnknownType() throws {
        let error = try #require(throws: SpecError.self) { try Spec(yaml: Self.withSparkle, source: "card.yaml") }
        #expect(error.description == "card.yaml:5:15: error: unknown trait type 'Sparkle'")
    }

    @Test(
        "every other error still rejects the spec under skipIdentifier",
        arguments: [
            ("badge: [{ type: CornerRadius, radius: wide }]", "card.yaml:4:"),
            ("badge: [{ type: BackgroundColor, color: \"@colors.nope\" }]", "card.yaml:4:"),
            ("badge: [{ type: Inherit, traits: [nowhere] }]", "card.yaml:4:"),
            ("badge: [{ type: CornerRadius, radius: 1, extra: 2 }]", "card.yaml:4:"),
        ])
    func otherErrorsStillReject(entry: String, place: String) throws {
        let yaml = "specs:\n  box: [{ type: Sparkle, level: 1 }]\n\n  \(entry)\n"
        let error = try #require(throws: SpecError.self) { try skipping(yaml) }
        #expect(error.code != .unknownTrait)
        #expect(error.description.hasPrefix(place))
    }

    @Test func aSkippedIdentifierKeepsExactlyItsTraitsAndTheRestApply() throws {
        let provider = TraitsProvider()
        let box = StyledBox()
        let badge = StyledBox()
        let shiny = StyledBox()
        provider.register(box, as: "box")
        provider.register(badge, as: "badge")
        provider.register(shiny, as: "shiny")
        try provider.load(skipping(Self.first))
        let badgeBefore = badge.snapshot
        badge.clearChanges()
        shiny.clearChanges()

        let report = try provider.load(skipping(Self.withSparkle))
        #expect(box.cornerRadius == 8)
        #expect(badge.snapshot == badgeBefore)
        #expect(badge.changes.isEmpty, "not reverted and re-applied either")
        #expect(shiny.changes.isEmpty, "an identifier new in the spec and skipped is not touched")
        #expect(report.changedIdentifiers == ["box"])
        #expect(report.skippedIdentifiers.map(\.identifier) == ["badge", "shiny"])
        #expect(report.description == "1 identifier changed, 1 target, +1 −1 traits, 2 identifiers skipped")

        // A target registered now gets the kept traits, as the others have.
        let late = StyledBox()
        provider.register(late, as: "badge")
        #expect(late.cornerRadius == 2)

        // A later spec without the unknown type applies the identifier again.
        let again = try provider.load(skipping(Self.first.replacingOccurrences(of: "radius: 2", with: "radius: 7")))
        #expect(again.skippedIdentifiers.isEmpty)
        #expect(badge.cornerRadius == 7 && late.cornerRadius == 7)
        try provider.load(skipping("specs: {}"))
        #expect(badge.snapshot == StyledBox().snapshot, "everything reverts to the pristine state")
    }

    @Test func allOrNothingHoldsForWhatIsApplied() throws {
        final class Plain {}
        let provider = TraitsProvider()
        let box = StyledBox()
        let badge = StyledBox()
        let plain = Plain()
        provider.register(box, as: "box")
        provider.register(badge, as: "badge")
        try provider.load(skipping(Self.first))
        provider.register(plain, as: "box")  // cannot take CornerRadius
        var reports = 0
        provider.addObserver { _ in reports += 1 }
        #expect(throws: SpecError.self) { try provider.load(skipping(Self.withSparkle)) }
        #expect(box.cornerRadius == 4 && badge.cornerRadius == 2)
        #expect(reports == 0)
    }

    @Test func aProviderDecodesWithItsOwnRegistryUnderTheSpecsPolicy() throws {
        let knowing = TraitRegistry()
        try knowing.register(Sparkle.self)
        // Read where Sparkle is known, loaded by a provider that lacks it: skipped there.
        let spec = try Spec(
            yaml: Self.withSparkle, source: "card.yaml", registry: knowing, unknownTraits: .skipIdentifier)
        #expect(spec.skippedIdentifiers().isEmpty)
        let old = TraitsProvider()
        #expect(try old.load(spec).skippedIdentifiers.map(\.identifier) == ["badge", "shiny"])
        // Read where it is unknown, loaded by a provider that knows it: applied.
        let new = TraitsProvider(registry: knowing)
        let badge = StyledBox()
        new.register(badge, as: "badge")
        #expect(try new.load(skipping(Self.withSparkle)).skippedIdentifiers.isEmpty)
        #expect(badge.opacity == 0.5)
        // Read with the default where it is known, loaded where it is not: rejected whole.
        let strict = try Spec(yaml: Self.withSparkle, source: "card.yaml", registry: knowing)
        #expect(throws: SpecError.self) { try old.load(strict) }
    }
}
