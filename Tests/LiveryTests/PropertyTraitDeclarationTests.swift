import LiveryTesting
import Testing

@testable import Livery

/// A ``PropertyTrait`` is its declaration: a custom one declared the way the built-ins are takes
/// the provider's fast path, applies and reverts exactly, has its checks run where a spec is read
/// and its bounds in the JSON Schema.
@Suite struct PropertyTraitDeclarationTests {
    /// Dims a target and hides it: two properties, through two capabilities.
    struct Fade: PropertyTrait {
        typealias Target = any HasOpacity & HasHidden
        static let typeName = "Fade"
        var level: Double
        var hide: Bool?
        static let properties = [
            TraitProperty("level", \Self.level, check: .within(0...0.5)) {
                func binding(_ target: (some HasOpacity).Type) -> PropertyBinding {
                    target.binding {
                        swap(&$0.opacity, &$1)
                    } assign: {
                        $0.opacity = $1
                    }
                }
                return ($0 as? any HasOpacity.Type).map { binding($0) }
            },
            TraitProperty("hide", \Self.hide) {
                func binding(_ target: (some HasHidden).Type) -> PropertyBinding {
                    target.binding {
                        swap(&$0.isHidden, &$1)
                    } assign: {
                        $0.isHidden = $1
                    }
                }
                return ($0 as? any HasHidden.Type).map { binding($0) }
            },
        ]
    }

    static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(Fade.self)
        return registry
    }

    @Test func itsOwnApplyRevertsExactlyNewestFirst() throws {
        try TraitConformance.checkReversal(
            of: [Fade(level: 0.2, hide: true), Fade(level: 0.4), Fade(level: 0.1, hide: false)], on: StyledBox(),
            state: { [$0.opacity, $0.isHidden ? 1 : 0] })
        let box = StyledBox()
        let reversal = try Fade(level: 0.3, hide: true).apply(to: box)
        #expect(box.opacity == 0.3 && box.isHidden)
        #expect(box.changes == ["opacity", "isHidden"])
        reversal.revert(box)
        #expect(box.snapshot == StyledBox().snapshot)
        #expect(box.changes == ["opacity", "isHidden", "isHidden", "opacity"], "newest first")
    }

    @Test func aLeftOutFieldLeavesItsPropertyAlone() throws {
        let box = StyledBox()
        box.isHidden = true
        box.clearChanges()
        _ = try Fade(level: 0.3).apply(to: box)
        #expect(box.changes == ["opacity"])
        #expect(box.isHidden)
    }

    @Test func theProviderAppliesItAsItsOwnApplyDoes() throws {
        let registry = try Self.registry()
        let provider = TraitsProvider(registry: registry)
        let engine = StyledBox()
        let hand = StyledBox()
        provider.register(engine, as: "box")
        try provider.load(Spec(yaml: "specs: { box: [{ type: Fade, level: 0.25, hide: true }] }", registry: registry))
        let reversal = try Fade(level: 0.25, hide: true).apply(to: hand)
        #expect(engine.snapshot == hand.snapshot && engine.changes == hand.changes)
        try provider.load(Spec(yaml: "specs: {}", registry: registry))
        reversal.revert(hand)
        #expect(engine.snapshot == StyledBox().snapshot && engine.changes == hand.changes)
    }

    @Test func itsCheckRefusesAValueWhereItIsWritten() throws {
        let registry = try Self.registry()
        #expect {
            try Spec(yaml: "specs:\n  box: [{ type: Fade, level: 0.75 }]", source: "fade.yaml", registry: registry)
        } throws: { error in
            "\(error)" == "fade.yaml:2:30: error: 'level' of trait Fade: 0.75 is out of range 0...0.5"
        }
    }

    @Test func theSchemaCarriesItsBounds() throws {
        let schema = try Self.registry().jsonSchema()
        #expect(schema.contains(#""level": {"anyOf": [{"type": "number", "minimum": 0, "maximum": 0.5}"#))
        #expect(schema.contains(#""hide": {"anyOf": [{"type": "boolean"}"#))
        let standard = TraitRegistry.standard.jsonSchema()
        #expect(standard.contains(#""radius": {"anyOf": [{"type": "number", "minimum": 0}"#))
        #expect(standard.contains(#""opacity": {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1}"#))
    }

    /// A class that lacks one of the trait's capabilities has no binding for it, so the provider
    /// refuses the trait before touching anything.
    @Test func aTargetWithoutEveryCapabilityIsRefusedUntouched() throws {
        let registry = try Self.registry()
        let provider = TraitsProvider(registry: registry)
        let corner = CornerOnly()
        provider.register(corner, as: "box")
        #expect(throws: SpecError.self) {
            try provider.load(Spec(yaml: "specs: { box: [{ type: Fade, level: 0.25 }] }", registry: registry))
        }
        #expect(corner.cornerRadius == 0)
    }
}
