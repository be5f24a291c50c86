import Livery
import Testing

// The public contract as the README's quick start and the WritingACustomTrait article write it (their samples are
// compiled word for word in Samples/LiverySamples.swift and ContractTypes.swift): here it must behave as the
// samples' comments say.

@Suite struct ContractTests {
    @Test func quickStartBehavesAsDocumented() throws {
        let provider = TraitsProvider()  // built-in traits from TraitRegistry.standard
        let card = Card()
        provider.register(card, as: "card")  // applies the current traits for "card", if any
        try provider.load(
            Spec(
                yaml: """
                    specs:
                      card:
                        - type: BackgroundColor
                          color: "#FF0000"
                        - type: CornerRadius
                          radius: 8
                    """))
        #expect(card.backgroundColor == Color(hex: "#FF0000"))
        #expect(card.cornerRadius == 8)
        try provider.load(Spec(json: #"{"specs": {"card": []}}"#))
        #expect(card.backgroundColor == .white)
        #expect(card.cornerRadius == 0)
        provider.unregister(card)
    }

    @Test func customTraitThroughItsOwnRegistry() throws {
        let registry = TraitRegistry()
        try registry.register(Blink.self)
        let provider = TraitsProvider(registry: registry)
        let cursor = Cursor()
        provider.register(cursor, as: "cursor")
        try provider.load(Spec(yaml: "specs: { cursor: [{ type: Blink, interval: 0.2 }] }", registry: registry))
        #expect(cursor.blinkInterval == 0.2)
        try provider.load(Spec(yaml: "specs: { cursor: [] }", registry: registry))
        #expect(cursor.blinkInterval == 0.5)
    }

    @Test func providerRegistryDecodesSpecsReadWithAnother() throws {
        // A spec read with the standard registry is decoded again with the provider's own.
        let registry = TraitRegistry()
        try registry.register(Blink.self)
        let provider = TraitsProvider(registry: registry)
        let card = Card()
        provider.register(card, as: "card")
        try provider.load(Spec(yaml: "specs: { card: [{ type: CornerRadius, radius: 4 }] }"))
        #expect(card.cornerRadius == 4)
    }

    @Test func registeringTwoTypesUnderOneNameIsAnError() throws {
        let registry = TraitRegistry()
        try registry.register(Blink.self)
        #expect(throws: TraitRegistryError.self) { try registry.register(Blink.self) }
        let error = try #require(throws: TraitRegistryError.self) { try registry.register(Blink.self) }
        #expect(error.description.hasPrefix("trait type name 'Blink' is already registered by "))
    }

    @Test func applyingToSomethingThatIsNotTheTargetNamesTraitIdentifierAndType() throws {
        let provider = TraitsProvider()
        let cursor = Cursor()
        provider.register(cursor, as: "cursor")
        let error = try #require(throws: SpecError.self) {
            try provider.load(Spec(yaml: "specs: { cursor: [{ type: CornerRadius, radius: 4 }] }", source: "ui.yaml"))
        }
        #expect(
            error.description
                == "ui.yaml:1:19: error: trait CornerRadius cannot apply to 'cursor': Cursor is not HasCornerRadius")
        #expect(error.code == .missingCapability)
    }

    @Test func originalTraitsJSONLoadsUnchanged() throws {
        let json = #"""
            {"specs": {
              "card": [{"type": "CornerRadius", "radius": 88},
                       {"type": "BackgroundColor", "color": "#00FF00"},
                       {"type": "DropShadow", "color": "#000000", "offset": {"width": 1, "height": 2}, "opacity": 0.5}],
              "title": [{"type": "Inherit", "traits": ["base"]}, {"type": "Font", "name": "Helvetica", "size": 14}],
              "base": [{"type": "Font", "color": "#333333"}],
              "gap": [{"type": "Constraint", "constant": 12}]
            }}
            """#
        let spec = try Spec(json: json)
        #expect(spec.identifiers == ["card", "title", "base", "gap"])
        #expect(spec.traits(for: "title").map { type(of: $0).typeName } == ["Font", "Font"])
        let radius = try #require(spec.traits(for: "card").first as? CornerRadius)
        #expect(radius.radius == 88)
    }
}
