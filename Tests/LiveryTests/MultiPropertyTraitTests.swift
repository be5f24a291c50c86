import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// Border, DropShadow and Font are fixed lists of property bindings: each sets exactly the fields
/// it is given and puts back exactly those, the provider's fast path agrees with the same traits
/// written by hand on the general path, and a load that fails after them leaves every target as
/// it was.
@Suite struct MultiPropertyTraitTests {
    /// Border as it was written before it was declared: its own `apply(to:)`, on the general path.
    struct HandBorder: Livery.Trait {
        static let typeName = "HandBorder"
        var color: Color?
        var width: Double?
        func apply(to target: any HasBorder) throws -> Reversal<any HasBorder> {
            Reversal.setting(target) { changes in
                changes.set(\.borderColor, to: color)
                changes.set(\.borderWidth, to: width)
            }
        }
    }

    /// DropShadow, by hand.
    struct HandShadow: Livery.Trait {
        static let typeName = "HandShadow"
        var color: Color?
        var offset: Size?
        var opacity: Double?
        var radius: Double?
        func apply(to target: any HasDropShadow) throws -> Reversal<any HasDropShadow> {
            Reversal.setting(target) { changes in
                changes.set(\.shadowColor, to: color)
                changes.set(\.shadowOffset, to: offset)
                changes.set(\.shadowOpacity, to: opacity)
                changes.set(\.shadowRadius, to: radius)
            }
        }
    }

    /// Font, by hand: its parts as one value.
    struct HandFont: Livery.Trait {
        static let typeName = "HandFont"
        var name: String?
        var size: Double?
        var weight: FontWeight?
        var color: Color?
        func apply(to target: any HasFont) throws -> Reversal<any HasFont> {
            var font: Font?
            if name != nil || size != nil || weight != nil {
                var changed = target.font
                if let name { changed.name = name }
                if let size { changed.size = size }
                if let weight { changed.weight = weight }
                font = changed
            }
            return Reversal.setting(target) { changes in
                changes.set(\.font, to: font)
                changes.set(\.textColor, to: color)
            }
        }
    }

    /// Fails on apply, on the general path: what makes a load roll back after the fast path.
    struct Boom: Livery.Trait {
        static let typeName = "Boom"
        var at: Double
        struct Failure: Error {}
        func apply(to target: StyledBox) throws -> Reversal<StyledBox> { throw Failure() }
    }

    static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        for type: any Livery.Trait.Type in [HandBorder.self, HandShadow.self, HandFont.self, Boom.self] {
            try registry.register(type)
        }
        return registry
    }

    /// One multi-field entry with some fields given, in the declared and the hand-written trait.
    static func entry(_ seed: Int) -> (fast: String, hand: String) {
        let colour = Color(red: UInt8(seed & 0xFF), green: UInt8((seed >> 8) & 0xFF), blue: 7)
        let number = Double(seed % 40) / 4
        let give = { (bit: Int) in (seed >> (bit + 3)) & 1 == 1 }
        var fields: [String] = []
        switch seed % 3 {
        case 0:
            if give(0) { fields.append("color: \"\(colour)\"") }
            if give(1) { fields.append("width: \(number)") }
            return (
                "{ type: Border\(fields.map { ", " + $0 }.joined()) }",
                "{ type: HandBorder\(fields.map { ", " + $0 }.joined()) }"
            )
        case 1:
            if give(0) { fields.append("color: \"\(colour)\"") }
            if give(1) { fields.append("offset: [\(number), \(-number)]") }
            if give(2) { fields.append("opacity: \(number / 10)") }
            if give(3) { fields.append("radius: \(number)") }
            return (
                "{ type: DropShadow\(fields.map { ", " + $0 }.joined()) }",
                "{ type: HandShadow\(fields.map { ", " + $0 }.joined()) }"
            )
        default:
            if give(0) { fields.append("name: F\(seed % 5)") }
            if give(1) { fields.append("size: \(number + 1)") }
            if give(2) { fields.append("weight: \(["light", "bold", "semibold"][seed % 3])") }
            if give(3) { fields.append("color: \"\(colour)\"") }
            return (
                "{ type: Font\(fields.map { ", " + $0 }.joined()) }",
                "{ type: HandFont\(fields.map { ", " + $0 }.joined()) }"
            )
        }
    }

    @Test func theFastPathAgreesWithTheGeneralPathOnRandomSequences() async throws {
        let registry = try Self.registry()
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...10)
        ) { start, seeds in
            let entries = seeds.map(Self.entry)
            let fast = ReversalPropertyTests.box(start)
            let hand = ReversalPropertyTests.box(start)
            let original = fast.snapshot
            let provider = TraitsProvider(registry: registry)
            provider.register(fast, as: "fast")
            provider.register(hand, as: "hand")
            let yaml =
                "specs:\n  fast:\n" + entries.map { "    - \($0.fast)\n" }.joined() + "  hand:\n"
                + entries.map { "    - \($0.hand)\n" }.joined()
            do {
                let report = try provider.load(Spec(yaml: yaml, registry: registry))
                #expect(fast.snapshot == hand.snapshot, "applied:\n\(yaml)")
                #expect(report.traitsApplied == 2 * entries.count)
                let back = try provider.load(Spec(yaml: "specs: {}", registry: registry))
                #expect(fast.snapshot == original && hand.snapshot == original, "reverted:\n\(yaml)")
                #expect(back.traitsReverted == 2 * entries.count)
            } catch {
                Issue.record("unexpected error \(error) for\n\(yaml)")
            }
        }
    }

    @Test func eachSetsExactlyTheFieldsItIsGiven() throws {
        let cases: [(any Livery.Trait, [String])] = [
            (Border(color: .black), ["borderColor"]),
            (Border(width: 2), ["borderWidth"]),
            (Border(color: .black, width: 2), ["borderColor", "borderWidth"]),
            (DropShadow(offset: Size(width: 1, height: 2), radius: 3), ["shadowOffset", "shadowRadius"]),
            (
                DropShadow(color: .black, offset: .zero, opacity: 0.5, radius: 1),
                ["shadowColor", "shadowOffset", "shadowOpacity", "shadowRadius"]
            ),
            (FontTrait(size: 20), ["font"]),
            (FontTrait(name: "Inter", weight: .bold, color: .black), ["font", "font", "textColor"]),
            (Border(), []),
        ]
        for (trait, expected) in cases {
            let box = StyledBox()
            let before = box.snapshot
            let reversal = try Self.apply(trait, to: box)
            #expect(box.changes == expected, "\(trait)")
            box.clearChanges()
            reversal()
            #expect(box.snapshot == before, "\(trait) reverted")
            #expect(box.changes == expected.reversed(), "\(trait) reverted newest first")
        }
        try TraitConformance.checkReversal(
            of: [Border(color: .black), Border(width: 3), Border(color: .white, width: 1)], on: StyledBox(),
            state: { [$0.borderColor.description, "\($0.borderWidth)"] })
        try TraitConformance.checkReversal(
            of: [FontTrait(size: 20), FontTrait(name: "Inter", weight: .bold), FontTrait(color: .black)],
            on: StyledBox(), state: { "\($0.font) \($0.textColor)" })
    }

    private static func apply<T: Livery.Trait>(_ trait: T, to box: StyledBox) throws -> () -> Void {
        let target = box as! T.Target
        let reversal = try trait.apply(to: target)
        return { reversal.revert(target) }
    }

    /// A load that fails after multi-field traits applied leaves every target as it was, with the
    /// previous spec's traits.
    @Test func aFailedLoadPutsEveryPropertyBack() throws {
        let registry = try Self.registry()
        let provider = TraitsProvider(registry: registry)
        let boxes = (0..<6).map { _ in StyledBox() }
        for (index, box) in boxes.enumerated() { provider.register(box, as: "b\(index % 3)") }
        try provider.load(
            Spec(
                yaml: """
                    specs:
                      b0: [{ type: Border, color: "#112233", width: 1 }, { type: Font, size: 12 }]
                      b1: [{ type: DropShadow, radius: 2 }]
                      b2: [{ type: Font, name: Inter, color: "#445566" }]
                    """, registry: registry))
        let before = boxes.map(\.snapshot)
        #expect(throws: SpecError.self) {
            try provider.load(
                Spec(
                    yaml: """
                        specs:
                          b0: [{ type: Border, width: 5 }, { type: DropShadow, color: "#FFFFFF", opacity: 1 }]
                          b1: [{ type: Font, size: 30, weight: bold }, { type: Border, color: "#000000" }]
                          b2: [{ type: DropShadow, offset: [1, 1] }, { type: Boom, at: 1 }]
                        """, registry: registry))
        }
        #expect(boxes.map(\.snapshot) == before)
    }
}
