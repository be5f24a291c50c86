import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// The provider applies the built-in property traits through a binding per (trait type, class),
/// keeping the old value inline; every other trait goes through its own `apply(to:)` and its
/// `Reversal`. These tests hold the two paths equal.
@Suite struct PropertyTraitTests {
    /// A trait on the general path that touches the same property as `CornerRadius`, so a
    /// sequence can interleave both kinds of undo on one property.
    struct GrowCorners: Livery.Trait {
        static let typeName = "GrowCorners"
        var by: Double
        func apply(to target: any HasCornerRadius) throws -> Reversal<any HasCornerRadius> {
            let old = target.cornerRadius
            target.cornerRadius += by
            return Reversal { $0.cornerRadius = old }
        }
    }

    /// One random step: its spec entry and the same trait applied by hand through its public
    /// `apply(to:)`, returning the reversal as a closure.
    struct Step: CustomStringConvertible {
        var yaml: String
        var apply: (AnyObject) throws -> (AnyObject) -> Void
        var description: String { yaml }
    }

    static func step(_ seed: Int) -> Step {
        let value = seed / 10
        let colour = Color(
            red: UInt8(value & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8((value >> 3) & 0xFF))
        let number = Double(value % 400) / 4
        let unit = Double(value % 101) / 100
        switch seed % 11 {
        case 0: return step("{ type: BackgroundColor, color: \"\(colour)\" }", BackgroundColor(color: colour))
        case 1: return step("{ type: CornerRadius, radius: \(number) }", CornerRadius(radius: number))
        case 2: return step("{ type: Opacity, opacity: \(unit) }", Opacity(opacity: unit))
        case 3:
            let insets = Insets(top: 1, left: number, bottom: 2, right: number / 2)
            return step("{ type: Padding, insets: [1, \(number), 2, \(number / 2)] }", Padding(insets: insets))
        case 4: return step("{ type: Constraint, constant: \(number - 50) }", Constraint(constant: number - 50))
        case 5: return step("{ type: Hidden, hidden: \(value % 2 == 0) }", Hidden(hidden: value % 2 == 0))
        case 6: return step("{ type: TextColor, color: \"\(colour)\" }", TextColor(color: colour))
        case 7: return step("{ type: GrowCorners, by: \(number) }", GrowCorners(by: number))
        case 8:
            return step(
                "{ type: Font, size: \(number + 1), color: \"\(colour)\" }", FontTrait(size: number + 1, color: colour))
        case 9: return step("{ type: Border, width: \(number) }", Border(width: number))
        default: return setStep(value)
        }
    }

    /// A `Set` of some of `StyledBox`'s tweakables, in an order and with value forms `value`
    /// picks: `timeout`, a `Double`, sometimes written as an integer.
    static func setStep(_ value: Int) -> Step {
        var members: [(key: String, value: SpecNode.Value, yaml: String)] = []
        if value & 1 != 0 { members.append(("retries", .int(value % 10), "\(value % 10)")) }
        if value & 2 != 0 {
            let number = Double(value % 40) / 4
            members.append(
                value & 4 != 0
                    ? ("timeout", .int(value % 7), "\(value % 7)") : ("timeout", .double(number), "\(number)"))
        }
        if value & 8 != 0 { members.append(("label", .string("l\(value % 5)"), "l\(value % 5)")) }
        if value & 16 != 0 { members.reverse() }
        return set(members)
    }

    /// A `Set` whose last value is not of its property's type: applying it fails, on either path,
    /// after the values before it were set.
    static func badSetStep(_ value: Int) -> Step {
        value % 2 == 0
            ? set([("retries", .int(2), "2"), ("label", .int(value % 9), "\(value % 9)")])
            : set([("timeout", .double(1.5), "1.5"), ("retries", .double(2.5), "2.5")])
    }

    private static func set(_ members: [(key: String, value: SpecNode.Value, yaml: String)]) -> Step {
        let location = SourceLocation.start(of: "hand")
        let trait = SetTrait(
            values: members.map {
                SpecNode.Member(key: $0.key, keyLocation: location, value: SpecNode($0.value, at: location))
            })
        return step(
            "{ type: Set, values: { \(members.map { "\($0.key): \($0.yaml)" }.joined(separator: ", ")) } }", trait)
    }

    private static func step<T: Livery.Trait>(_ yaml: String, _ trait: T) -> Step {
        Step(yaml: yaml) { object in
            guard let target = object as? T.Target else { throw NotATarget(trait: T.typeName) }
            let reversal = try trait.apply(to: target)
            return { object in
                if let target = object as? T.Target { reversal.revert(target) }
            }
        }
    }

    struct NotATarget: Error {
        var trait: String
    }

    static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(GrowCorners.self)
        return registry
    }

    @Test func providerAndTheTraitsOwnApplyAgreeOnRandomSequences() async throws {
        let registry = try Self.registry()
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...1_000_000).array(of: 0...12)
        ) { start, seeds in
            let steps = seeds.map(Self.step)
            let engineBox = ReversalPropertyTests.box(start)
            let handBox = ReversalPropertyTests.box(start)
            let original = handBox.snapshot
            let provider = TraitsProvider(registry: registry)
            provider.register(engineBox, as: "box")
            let yaml = "specs:\n  box:\n" + steps.map { "    - \($0.yaml)\n" }.joined()
            do {
                try provider.load(Spec(yaml: yaml, registry: registry))
                var reversals: [(AnyObject) -> Void] = []
                for step in steps { reversals.append(try step.apply(handBox)) }
                #expect(engineBox.snapshot == handBox.snapshot, "applied:\n\(yaml)")
                #expect(engineBox.changes == handBox.changes, "properties set while applying:\n\(yaml)")

                try provider.load(Spec(yaml: "specs: {}", registry: registry))
                for reversal in reversals.reversed() { reversal(handBox) }
                #expect(engineBox.snapshot == handBox.snapshot, "reverted:\n\(yaml)")
                #expect(engineBox.snapshot == original, "reverted:\n\(yaml)")
                #expect(engineBox.changes == handBox.changes, "properties set while reverting:\n\(yaml)")
            } catch {
                Issue.record("unexpected error \(error) for\n\(yaml)")
            }
        }
    }

    /// The capability check and the apply take their answer from one decision; for the
    /// property traits it must be the answer a cast to the trait's `Target` gives.
    @Test(arguments: ["StyledBox", "CornerOnly", "OverridingCorners", "PlainObject"])
    func bindingExistsExactlyWhereTheCastSucceeds(_ className: String) throws {
        let object: AnyObject =
            switch className {
            case "StyledBox": StyledBox()
            case "CornerOnly": CornerOnly()
            case "OverridingCorners": OverridingCorners()
            default: PlainObject()
            }
        for name in TraitRegistry.standard.typeNames {
            let type = try #require(TraitRegistry.standard.type(named: name))
            let verdict = type.verdict(for: object, names: nil)
            #expect(verdict.capable == type.canApply(object), "\(name) on \(className)")
            if let property = type.metatype as? any PropertyTrait.Type {
                let count = verdict.capable ? Self.propertyCount(property) : 0
                #expect(verdict.bindings.count == count, "\(name) on \(className)")
            } else {
                #expect(verdict.bindings.isEmpty, "\(name) on \(className)")
            }
        }
    }

    static func propertyCount<T: PropertyTrait>(_: T.Type) -> Int { T.properties.count }

    /// Every built-in trait is a property trait, or names its properties as `Set` does: the
    /// provider applies it on its fast path, one binding per property.
    @Test func everyBuiltInIsOnTheFastPath() {
        for name in TraitRegistry.standard.typeNames {
            let metatype = TraitRegistry.standard.type(named: name)?.metatype
            #expect(metatype is any PropertyTrait.Type || metatype is any NamedPropertyTrait.Type, "\(name)")
        }
    }

    /// A subclass that overrides the property is set through its override on both paths.
    @Test func subclassOverrideRunsOnBothPaths() throws {
        let provider = TraitsProvider()
        let engine = OverridingCorners()
        let hand = OverridingCorners()
        provider.register(engine, as: "box")
        try provider.load(Spec(yaml: "specs: { box: [{ type: CornerRadius, radius: 4 }] }"))
        let reversal = try CornerRadius(radius: 4).apply(to: hand)
        #expect(engine.cornerRadius == 4 && engine.setCount == 1)
        #expect(hand.cornerRadius == 4 && hand.setCount == 1)
        try provider.load(Spec(yaml: "specs: {}"))
        reversal.revert(hand)
        #expect(engine.cornerRadius == 0 && engine.setCount == 2)
        #expect(hand.cornerRadius == 0 && hand.setCount == 2)
    }

    /// Targets of two classes under one identifier, interleaved: each class gets its own
    /// bindings, and everything goes back.
    @Test func twoClassesUnderOneIdentifierInterleaved() throws {
        let provider = TraitsProvider()
        let objects: [any HasCornerRadius] = (0..<20).map { $0 % 3 == 0 ? CornerOnly() : OverridingCorners() }
        for object in objects { provider.register(object, as: "box") }
        try provider.load(
            Spec(yaml: "specs: { box: [{ type: CornerRadius, radius: 4 }, { type: CornerRadius, radius: 9 }] }"))
        #expect(objects.allSatisfy { $0.cornerRadius == 9 })
        try provider.load(Spec(yaml: "specs: { box: [{ type: CornerRadius, radius: 2 }] }"))
        #expect(objects.allSatisfy { $0.cornerRadius == 2 })
        try provider.load(Spec(yaml: "specs: {}"))
        #expect(objects.allSatisfy { $0.cornerRadius == 0 })
    }
}

/// A target with one capability.
class CornerOnly: HasCornerRadius {
    var cornerRadius: Double = 0
}

/// A subclass whose override counts the sets.
final class OverridingCorners: CornerOnly {
    private(set) var setCount = 0
    override var cornerRadius: Double {
        didSet { setCount += 1 }
    }
}
