import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// A custom ``PropertyTrait`` whose `Target` is a class of the program's own, its properties
/// declared by closures (`exchange:assign:`) or by key paths (`sets:`): both take the provider's
/// fast path, on the class and its subclasses, and agree exactly with the trait's own apply and
/// reversal.
@Suite struct ClassTargetTraitTests {
    /// A target that records every property set, in order.
    class Lamp {
        struct State: Equatable {
            var glow: Double
            var tint: Color
        }

        private(set) var changes: [String] = []
        var glow = 0.0 { didSet { changes.append("glow") } }
        var tint = Color.black { didSet { changes.append("tint") } }

        init(_ seed: Int) {
            glow = Double(seed % 9)
            tint = Color(red: UInt8(seed & 0xFF), green: 1, blue: 2)
            changes = []
        }

        var state: State { State(glow: glow, tint: tint) }
    }

    /// A subclass: the trait's declaration names `Lamp`, and applies to it too.
    final class DimLamp: Lamp {}

    /// Declared by closures.
    struct Shine: PropertyTrait {
        typealias Target = Lamp
        static let typeName = "Shine"
        var glow: Double
        var tint: Color?
        static let properties = [
            TraitProperty("glow", \Shine.glow, check: .atLeast(0)) {
                swap(&$0.glow, &$1)
            } assign: {
                $0.glow = $1
            },
            TraitProperty("tint", \Shine.tint) {
                swap(&$0.tint, &$1)
            } assign: {
                $0.tint = $1
            },
        ]
    }

    /// The same properties declared by key paths.
    struct Beam: PropertyTrait {
        typealias Target = Lamp
        static let typeName = "Beam"
        var glow: Double
        var tint: Color?
        static let properties = [
            TraitProperty("glow", \Beam.glow, check: .atLeast(0), sets: \Lamp.glow),
            TraitProperty("tint", \Beam.tint, sets: \Lamp.tint),
        ]
    }

    static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(Shine.self)
        try registry.register(Beam.self)
        return registry
    }

    /// One entry `seed` picks: either declaration, the tint given or left out, as YAML and as a
    /// hand application returning its undo.
    static func entry(_ seed: Int) -> (yaml: String, apply: (Lamp) throws -> (Lamp) -> Void) {
        let glow = Double((seed >> 3) % 40) / 4
        let tint = seed & 2 != 0 ? Color(red: UInt8((seed >> 4) & 0xFF), green: 7, blue: 9) : nil
        let type = seed & 1 != 0 ? "Shine" : "Beam"
        let yaml = "{ type: \(type), glow: \(glow)\(tint.map { ", tint: \"\($0)\"" } ?? "") }"
        return (
            yaml,
            { lamp in
                if seed & 1 != 0 {
                    let reversal = try Shine(glow: glow, tint: tint).apply(to: lamp)
                    return { reversal.revert($0) }
                }
                let reversal = try Beam(glow: glow, tint: tint).apply(to: lamp)
                return { reversal.revert($0) }
            }
        )
    }

    @Test func theProviderAgreesWithTheTraitsOwnApplyOnRandomSequences() async throws {
        let registry = try Self.registry()
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...8)
        ) { start, seeds in
            let entries = seeds.map(Self.entry)
            // Subclass objects on odd starts: the declaration binds them too.
            let engine = start & 1 != 0 ? DimLamp(start) : Lamp(start)
            let hand = Lamp(start)
            let original = hand.state
            let provider = TraitsProvider(registry: registry)
            provider.register(engine, as: "lamp")
            let yaml =
                "specs:\n  lamp:\n" + (entries.isEmpty ? "    []\n" : entries.map { "    - \($0.yaml)\n" }.joined())
            do {
                let report = try provider.load(Spec(yaml: yaml, registry: registry))
                var undos: [(Lamp) -> Void] = []
                for entry in entries { undos.append(try entry.apply(hand)) }
                #expect(report.traitsApplied == entries.count)
                #expect(engine.state == hand.state, "applied:\n\(yaml)")
                #expect(engine.changes == hand.changes, "properties set while applying:\n\(yaml)")

                try provider.load(Spec(yaml: "specs: {}", registry: registry))
                for undo in undos.reversed() { undo(hand) }
                #expect(engine.state == original, "reverted:\n\(yaml)")
                #expect(engine.changes == hand.changes, "properties set while reverting:\n\(yaml)")
            } catch {
                Issue.record("unexpected error \(error) for\n\(yaml)")
            }
        }
    }

    /// Every property of both declarations is a bound step for the class and its subclass.
    @Test(arguments: [false, true])
    func bothDeclarationsTakeTheFastPath(subclass: Bool) throws {
        let registry = try Self.registry()
        let spec = try Spec(
            yaml: "specs: { lamp: [{ type: Shine, glow: 1, tint: '#FF0000' }, { type: Beam, glow: 2 }] }",
            registry: registry
        ).decoded(with: registry)
        let list = try #require(spec.resolution(for: nil)?.list(for: "lamp"))
        let lamp = subclass ? DimLamp(0) : Lamp(0)
        let plan = try TraitsProvider.plan(list.traits, identifier: "lamp", object: lamp, ClassCapabilities())
        #expect(SetFastPathTests.kinds(plan) == "bound bound bound bound")
    }

    /// An object of another class is refused before anything is touched.
    @Test func anObjectOfAnotherClassIsRefusedUntouched() throws {
        let registry = try Self.registry()
        for type in ["Shine", "Beam"] {
            let provider = TraitsProvider(registry: registry)
            let corner = CornerOnly()
            provider.register(corner, as: "lamp")
            #expect(throws: SpecError.self) {
                try provider.load(Spec(yaml: "specs: { lamp: [{ type: \(type), glow: 3 }] }", registry: registry))
            }
            #expect(corner.cornerRadius == 0)
        }
    }

    @Test func eachDeclarationRevertsExactlyNewestFirst() throws {
        try TraitConformance.checkReversal(
            of: [Shine(glow: 2, tint: .white), Shine(glow: 5), Shine(glow: 1, tint: .black)], on: DimLamp(3),
            state: \.state)
        try TraitConformance.checkReversal(
            of: [Beam(glow: 2, tint: .white), Beam(glow: 5), Beam(glow: 1, tint: .black)], on: Lamp(3),
            state: \.state)
    }
}
