import LiveryTesting
import Testing

@testable import Livery

/// `Inherit` is a directive of the spec language, not a trait type: spelt as a trait entry, it
/// works with any registry, no trait type may take its name, and the schema still offers it.
@Suite struct InheritDirectiveTests {
    struct Lamp: Livery.Trait {
        static let typeName = "Lamp"
        var level: Double
        func apply(to box: StyledBox) throws -> Reversal<StyledBox> {
            let old = box.opacity
            box.opacity = level
            return Reversal { $0.opacity = old }
        }
    }

    @Test func itWorksWithARegistryThatHasNoBuiltIns() throws {
        let registry = TraitRegistry(includingBuiltIns: false)
        try registry.register(Lamp.self)
        #expect(!registry.typeNames.contains("Inherit"))
        let spec = try Spec(
            yaml: "specs:\n  base: [{ type: Lamp, level: 0.5 }]\n  box: [{ type: Inherit, traits: [base] }]",
            registry: registry)
        let provider = TraitsProvider(registry: registry)
        let box = StyledBox()
        provider.register(box, as: "box")
        try provider.load(spec)
        #expect(box.opacity == 0.5)
    }

    @Test func noTraitTypeMayTakeItsName() {
        struct Impostor: Livery.Trait {
            static let typeName = "Inherit"
            func apply(to target: AnyObject) throws -> Reversal<AnyObject> { .none }
        }
        #expect {
            try TraitRegistry(includingBuiltIns: false).register(Impostor.self)
        } throws: { error in
            "\(error)".hasPrefix(
                "trait type name 'Inherit' is already registered by the spec language's Inherit directive")
        }
    }

    @Test func theStandardRegistryListsItNotButTheSchemaOffersIt() {
        #expect(!TraitRegistry.standard.typeNames.contains("Inherit"))
        let schema = TraitRegistry.standard.jsonSchema()
        #expect(schema.contains(#""Hidden", "Inherit", "Opacity""#))
        #expect(
            schema.contains(
                #"{"if": {"properties": {"type": {"const": "Inherit"}}}, "then": {"properties": {"type": {"const": "Inherit"}, "traits": {"anyOf": [{"type": "array", "items": {"anyOf": [{"type": "string"}"#
            ))
    }

    @Test func aMisspellingIsSuggestedAndABadFieldIsPlaced() {
        #expect {
            try Spec(yaml: "specs:\n  a: []\n  b: [{ type: Inheritt, traits: [a] }]", source: "b.yaml")
        } throws: { error in
            "\(error)" == "b.yaml:3:15: error: unknown trait type 'Inheritt'; did you mean 'Inherit'?"
        }
        #expect {
            try Spec(yaml: "specs:\n  a: []\n  b: [{ type: Inherit, traits: 5 }]", source: "b.yaml")
        } throws: { error in
            "\(error)".hasPrefix("b.yaml:3:32: error: 'traits' of Inherit: ")
        }
    }
}
