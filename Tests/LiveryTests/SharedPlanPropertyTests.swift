import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// A load works out once how objects of one class take one shape of trait list (a plan) and
/// reuses it for the following targets of that class and shape. These tests hold loads through
/// shared plans equal to each trait's own `apply(to:)` and reversal, on targets of several
/// classes interleaved under several identifiers, across sequences of loads, some of which fail.
@Suite struct SharedPlanPropertyTests {
    /// What a test compares of a target: every property of a `StyledBox`, the radius of the
    /// classes that only have one.
    enum State: Equatable {
        case box(StyledBox.Snapshot)
        case corners(Double)
        case unknown
    }

    static func state(_ object: AnyObject) -> State {
        if let box = object as? StyledBox { return .box(box.snapshot) }
        if let corners = object as? CornerOnly { return .corners(corners.cornerRadius) }
        return .unknown
    }

    /// A target of one of three classes: two share every trait the third lacks but one.
    static func target(_ kind: Int) -> AnyObject {
        switch kind % 4 {
        case 0, 1: ReversalPropertyTests.box(kind)
        case 2: CornerOnly()
        default: OverridingCorners()
        }
    }

    /// One registered target, its twin styled by hand, and the reversals the twin's traits
    /// returned, oldest first.
    struct Hand {
        let kind: Int
        let identifier: Int
        let engine: AnyObject
        let hand: AnyObject
        var reversals: [(AnyObject) -> Void] = []
    }

    /// The steps of every identifier in one spec: seeds of ``PropertyTraitTests/step(_:)``. Most
    /// are radii, so that the radius-only classes often can take a whole list; a few are a `Set`
    /// that fails after setting some of its values.
    static func steps(_ seeds: [Int]) -> [PropertyTraitTests.Step] {
        seeds.map {
            switch $0 % 3 {
            case 0: PropertyTraitTests.step($0)
            case 1 where $0 % 13 == 1: PropertyTraitTests.badSetStep($0 / 13)
            default: PropertyTraitTests.step($0 / 11 * 11 + 1)
            }
        }
    }

    static func yaml(_ spec: [[PropertyTraitTests.Step]]) -> String {
        "specs:\n"
            + spec.enumerated().map { index, steps in
                "  id\(index):\n" + (steps.isEmpty ? "    []\n" : steps.map { "    - \($0.yaml)\n" }.joined())
            }.joined()
    }

    /// Whether every step applies to an object of `kind`, tried on a fresh one.
    static func applies(_ steps: [PropertyTraitTests.Step], toKind kind: Int) -> Bool {
        let probe = target(kind)
        do {
            for step in steps { _ = try step.apply(probe) }
            return true
        } catch {
            return false
        }
    }

    @Test func sharedPlansAgreeWithEachTraitsOwnApplyAcrossLoads() async throws {
        let registry = try PropertyTraitTests.registry()
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 0...1_000_000).array(of: 1...8),
            Gen.int(in: 0...1_000_000).array(of: 0...4).array(of: 3...3).array(of: 1...4)
        ) { kinds, seedsPerLoad in
            var targets = kinds.enumerated().map { index, kind in
                Hand(kind: kind, identifier: index % 3, engine: Self.target(kind), hand: Self.target(kind))
            }
            let original = targets.map { Self.state($0.hand) }
            let provider = TraitsProvider(registry: registry)
            for target in targets { provider.register(target.engine, as: "id\(target.identifier)") }
            var current = ["", "", ""]
            for spec in seedsPerLoad.map({ $0.map(Self.steps) }) + [[[], [], []]] {
                let yaml = Self.yaml(spec)
                let lists = spec.map { $0.map(\.yaml).joined(separator: "\n") }
                // The hand-written model: only changed identifiers are restyled, and a load
                // either applies to every target or changes nothing.
                let changed = targets.indices.filter {
                    lists[targets[$0].identifier] != current[targets[$0].identifier]
                }
                let possible = changed.allSatisfy {
                    Self.applies(spec[targets[$0].identifier], toKind: targets[$0].kind)
                }
                let before = targets.map { Self.state($0.engine) }
                do {
                    guard possible else {
                        #expect(throws: SpecError.self, "\(yaml)") {
                            try provider.load(Spec(yaml: yaml, registry: registry))
                        }
                        #expect(
                            targets.map { Self.state($0.engine) } == before, "a failed load changed a target:\n\(yaml)")
                        continue
                    }
                    try provider.load(Spec(yaml: yaml, registry: registry))
                    for index in changed {
                        for reversal in targets[index].reversals.reversed() { reversal(targets[index].hand) }
                        targets[index].reversals = try spec[targets[index].identifier].map {
                            try $0.apply(targets[index].hand)
                        }
                    }
                    current = lists
                    #expect(targets.map { Self.state($0.engine) } == targets.map { Self.state($0.hand) }, "\(yaml)")
                } catch {
                    Issue.record("unexpected error \(error) for\n\(yaml)")
                }
            }
            #expect(targets.map { Self.state($0.engine) } == original)
        }
    }
}
