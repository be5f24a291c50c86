import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// `Set` on the provider's fast path: each value through the binding of the tweakable property
/// it names, made once the class is known; a `Set` with a value of a kind its property's binding
/// does not take (a colour written as a string), a value with no scalar form or a name the class
/// does not bind, through its own `apply(to:)`. Both paths must agree exactly.
@Suite struct SetFastPathTests {
    /// A tweakable target of every kind of value: scalars a binding takes as the spec types them,
    /// a colour it does not (a string in specs), and a list, which has no fast form.
    final class Tunable: Tweakable {
        struct State: Equatable {
            var count: Int
            var ratio: Double
            var name: String
            var enabled: Bool
            var tint: Color
            var sizes: [Int]
        }

        private(set) var changes: [String] = []
        var count = 3 { didSet { changes.append("count") } }
        var ratio = 0.5 { didSet { changes.append("ratio") } }
        var name = "start" { didSet { changes.append("name") } }
        var enabled = false { didSet { changes.append("enabled") } }
        var tint = Color.black { didSet { changes.append("tint") } }
        var sizes = [1] { didSet { changes.append("sizes") } }

        /// Both forms of declaration: by closures (`count`, `name`, `enabled`) and by key paths.
        static let tweakables: [String: Tweak<Tunable>] = [
            "count": .property {
                swap(&$0.count, &$1)
            } assign: {
                $0.count = $1
            },
            "ratio": .keyPath(\.ratio),
            "name": .property {
                swap(&$0.name, &$1)
            } assign: {
                $0.name = $1
            },
            "enabled": .property {
                swap(&$0.enabled, &$1)
            } assign: {
                $0.enabled = $1
            },
            "tint": .keyPath(\.tint),
            "sizes": .keyPath(\.sizes),
        ]

        init(_ seed: Int) {
            count = seed % 50
            ratio = Double(seed % 9) / 8
            name = "n\(seed % 4)"
            tint = Color(red: UInt8(seed & 0xFF), green: 3, blue: 4)
            changes = []
        }

        var state: State {
            State(count: count, ratio: ratio, name: name, enabled: enabled, tint: tint, sizes: sizes)
        }
    }

    /// A `Set` entry of some of ``Tunable``'s properties, in an order and with forms `seed`
    /// picks, as YAML and as the trait.
    static func entry(_ seed: Int) -> (yaml: String, trait: SetTrait) {
        let value = seed >> 8
        let location = SourceLocation.start(of: "hand")
        var members: [(key: String, value: SpecNode.Value, yaml: String)] = []
        if seed & 1 != 0 { members.append(("count", .int(value % 100), "\(value % 100)")) }
        if seed & 2 != 0 {
            let number = Double(value % 64) / 8
            members.append(
                seed & 4 != 0 ? ("ratio", .int(value % 5), "\(value % 5)") : ("ratio", .double(number), "\(number)"))
        }
        if seed & 8 != 0 { members.append(("name", .string("v\(value % 6)"), "v\(value % 6)")) }
        if seed & 16 != 0 { members.append(("enabled", .bool(value % 2 == 0), "\(value % 2 == 0)")) }
        if seed & 32 != 0 {
            let colour = Color(red: UInt8(value & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: 9)
            members.append(("tint", .string("\(colour)"), "\"\(colour)\""))
        }
        if seed & 64 != 0 {
            let sizes = [value % 7, value % 3]
            members.append(
                ("sizes", .sequence(sizes.map { SpecNode(.int($0), at: location) }), "[\(sizes[0]), \(sizes[1])]"))
        }
        if seed & 128 != 0 { members.reverse() }
        let trait = SetTrait(
            values: members.map {
                SpecNode.Member(key: $0.key, keyLocation: location, value: SpecNode($0.value, at: location))
            })
        return ("{ type: Set, values: { \(members.map { "\($0.key): \($0.yaml)" }.joined(separator: ", ")) } }", trait)
    }

    @Test func theFastPathAgreesWithSetsOwnApplyOnRandomSequences() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...8)
        ) { start, seeds in
            let entries = seeds.map(Self.entry)
            let engine = Tunable(start)
            let hand = Tunable(start)
            let original = hand.state
            let provider = TraitsProvider()
            provider.register(engine, as: "t")
            let yaml = "specs:\n  t:\n" + (entries.isEmpty ? "    []\n" : entries.map { "    - \($0.yaml)\n" }.joined())
            do {
                let report = try provider.load(Spec(yaml: yaml))
                var reversals: [Reversal<any Tweakable>] = []
                for entry in entries { reversals.append(try entry.trait.apply(to: hand)) }
                #expect(report.traitsApplied == entries.count)
                #expect(engine.state == hand.state, "applied:\n\(yaml)")
                #expect(engine.changes == hand.changes, "properties set while applying:\n\(yaml)")

                try provider.load(Spec(yaml: "specs: {}"))
                for reversal in reversals.reversed() { reversal.revert(hand) }
                #expect(engine.state == original, "reverted:\n\(yaml)")
                #expect(engine.changes == hand.changes, "properties set while reverting:\n\(yaml)")
            } catch {
                Issue.record("unexpected error \(error) for\n\(yaml)")
            }
        }
    }

    /// Loads one after another that keep the names and forms of each `Set` and change its values
    /// (the usual edit, which the provider sets in place), and some that change them: after each,
    /// the target holds what reverting the previous traits and applying the new ones by hand
    /// gives, an integer for a `Double` included; after the last, what it held before any.
    @Test func consecutiveLoadsOfTheSameNamesAgreeWithRevertingAndApplying() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...255).array(of: 1...3), Gen.int(in: 0...1_000_000).array(of: 2...6)
        ) { forms, values in
            let engine = Tunable(values[0])
            let hand = Tunable(values[0])
            let original = hand.state
            let provider = TraitsProvider()
            provider.register(engine, as: "t")
            var reversals: [Reversal<any Tweakable>] = []
            do {
                for (load, value) in values.enumerated() {
                    // Every third load gives the first `Set` other forms, so the in-place path
                    // meets records it does not match too.
                    let entries = forms.enumerated().map { index, form in
                        Self.entry((index == 0 && load % 3 == 2 ? form ^ 0x5B : form) | value << 8)
                    }
                    let yaml = "specs:\n  t:\n" + entries.map { "    - \($0.yaml)\n" }.joined()
                    try provider.load(Spec(yaml: yaml))
                    for reversal in reversals.reversed() { reversal.revert(hand) }
                    reversals = try entries.map { try $0.trait.apply(to: hand) }
                    #expect(engine.state == hand.state, "load \(load):\n\(yaml)")
                }
                try provider.load(Spec(yaml: "specs: {}"))
                #expect(engine.state == original, "reverted")
            } catch {
                Issue.record("unexpected error \(error) for forms \(forms), values \(values)")
            }
        }
    }

    /// The steps a plan for `yaml`'s one identifier `t` takes on a ``Tunable``.
    static func plan(_ yaml: String) throws -> [ClassCapabilities.Step] {
        let spec = try Spec(yaml: yaml).decoded(with: .standard)
        let list = try #require(spec.resolution(for: nil)?.list(for: "t"))
        let target = Tunable(0)
        return try TraitsProvider.plan(list.traits, identifier: "t", object: target, ClassCapabilities())
    }

    static func kinds(_ steps: [ClassCapabilities.Step]) -> String {
        steps.map {
            switch $0 {
            case .bound: "bound"
            case .general: "general"
            case .covered: "covered"
            }
        }.joined(separator: " ")
    }

    @Test func aSetIsBoundWhereTheClassBindsEveryNameItSets() throws {
        // An integer for a Double is taken, as a spec read takes it.
        let bound = try Self.plan(
            "specs: { t: [{ type: Set, values: { count: 1, ratio: 2, name: x, enabled: true } }] }")
        #expect(Self.kinds(bound) == "bound bound bound bound")
        // A name the class does not list, or lists with a type no PropertyValue holds, or a value
        // of a kind the binding does not take: the trait's own apply, over as many steps as it
        // has values.
        let unknown = try Self.plan("specs: { t: [{ type: Set, values: { count: 1, counts: 2 } }] }")
        #expect(Self.kinds(unknown) == "general covered")
        let colour = try Self.plan("specs: { t: [{ type: Set, values: { tint: '#FFFFFF', count: 1 } }] }")
        #expect(Self.kinds(colour) == "general covered")
        let wrong = try Self.plan("specs: { t: [{ type: Set, values: { count: 1.5 } }] }")
        #expect(Self.kinds(wrong) == "general")
        // A value with no scalar form: one step, the trait's own apply.
        let list = try Self.plan(
            "specs: { t: [{ type: Set, values: { count: 1, sizes: [2] } }, { type: Set, values: {} }] }")
        #expect(Self.kinds(list) == "general")
    }

    /// Two `Set`s of different names in one spec are two shapes: a plan made for one is not
    /// reused for the other.
    @Test func setsOfDifferentNamesDoNotShareAPlan() throws {
        let provider = TraitsProvider()
        let targets = (0..<4).map(Tunable.init)
        for (index, target) in targets.enumerated() { provider.register(target, as: "t\(index % 2)") }
        try provider.load(
            Spec(yaml: "specs: { t0: [{ type: Set, values: { count: 7 } }], t1: [{ type: Set, values: { name: y } }] }")
        )
        #expect(targets.map(\.count) == [7, 1, 7, 3])
        #expect(targets.map(\.name) == ["n0", "y", "n2", "y"])
        try provider.load(Spec(yaml: "specs: {}"))
        #expect(targets.map(\.state) == (0..<4).map { Tunable($0).state })
    }

    /// A theme's resolution keeps the base's numbers for the lists it shares with it and numbers
    /// only the lists it changes: a changed list of a new shape (`t1`'s `ratio`, an integer in
    /// the base and a fraction in the theme) must not take the number of a shared one (`t0`'s),
    /// or it would be applied through `t0`'s plan.
    @Test func aThemesChangedListsAreNumberedApartFromItsSharedOnes() throws {
        let provider = TraitsProvider()
        let targets = (0..<4).map(Tunable.init)
        for (index, target) in targets.enumerated() { provider.register(target, as: "t\(index % 2)") }
        let themes = "variables: { share: 2 }\nthemes: { fine: { share: 0.25 } }\n"
        try provider.load(Spec(yaml: themes + "specs: {}"))
        try provider.setTheme("fine")
        // Both lists are applied in one load, under the theme: `t0`'s plan is made first.
        try provider.load(
            Spec(
                yaml: themes + """
                    specs:
                      t0: [{ type: Set, values: { count: 7 } }]
                      t1: [{ type: Set, values: { ratio: "@share" } }]
                    """))
        #expect(targets.map(\.count) == [7, 1, 7, 3])
        #expect(targets.map(\.ratio) == [0, 0.25, 2.0 / 8, 0.25])
        try provider.setTheme(nil)
        #expect(targets.map(\.ratio) == [0, 2, 2.0 / 8, 2])
        try provider.load(Spec(yaml: "specs: {}"))
        #expect(targets.map(\.state) == (0..<4).map { Tunable($0).state })
    }

    /// A value that is not of its property's type fails the load, with the error the trait's own
    /// apply gives, and nothing changed.
    @Test func aWrongValueFailsTheLoadAndChangesNothing() throws {
        let provider = TraitsProvider()
        let targets = (0..<3).map(Tunable.init)
        for (index, target) in targets.enumerated() { provider.register(target, as: "t\(index)") }
        try provider.load(Spec(yaml: "specs: { t0: [{ type: Set, values: { count: 9 } }] }"))
        let before = targets.map(\.state)
        let yaml = """
            specs:
              t0: [{ type: Set, values: { name: a, count: 1 } }]
              t1: [{ type: Set, values: { count: 2, name: b, enabled: true } }]
              t2: [{ type: Set, values: { count: 3, ratio: 0.5, enabled: 1 } }]
            """
        let error = try #require(throws: SpecError.self) { try provider.load(Spec(yaml: yaml, source: "t.yaml")) }
        #expect("\(error)".hasPrefix("t.yaml:4:62: error: "), "\(error)")
        #expect("\(error)".contains("'enabled' of Tunable"), "\(error)")
        #expect(targets.map(\.state) == before)
    }
}
