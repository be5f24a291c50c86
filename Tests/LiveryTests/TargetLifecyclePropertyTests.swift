import LiveryTesting
import PropertyBased
import Testing

@testable import Livery

/// A provider keeps its targets in reused slots, finds the targets of a changed identifier by
/// the identifier's position in the spec (a placement made again when registrations or the
/// order of identifiers change), and skips targets whose objects are gone. These tests run
/// random sequences of registrations, re-registrations, unregistrations, released objects and
/// loads whose identifiers come and go in any order, some of which fail, and hold every live
/// target equal to a twin styled by hand with each trait's own `apply(to:)` and reversal.
@Suite struct TargetLifecyclePropertyTests {
    /// One target the sequence made, and its twin.
    struct Twin {
        let kind: Int
        var identifier: Int
        /// Nil once the sequence released the object.
        var engine: AnyObject?
        let hand: AnyObject
        let original: SharedPlanPropertyTests.State
        var registered = false
        var reversals: [(AnyObject) -> Void] = []
    }

    /// A small deterministic generator, so that one seed gives one spec.
    struct Dice {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let identifiers = 5

    /// A spec naming some of the identifiers, in some order, each with up to three steps.
    static func spec(_ seed: Int) -> (yaml: String, lists: [Int: [PropertyTraitTests.Step]]) {
        var dice = Dice(state: UInt64(seed))
        // Mostly every identifier in the same order, as an edit keeps them; otherwise some of
        // them in any order.
        var order = Array(0..<identifiers)
        var count = identifiers
        if dice.next(3) == 0 {
            for index in order.indices.reversed() { order.swapAt(index, dice.next(index + 1)) }
            count = dice.next(identifiers + 1)
        }
        var lists: [Int: [PropertyTraitTests.Step]] = [:]
        var yaml = "specs:\n"
        for identifier in order.prefix(count) {
            let steps = SharedPlanPropertyTests.steps((0..<dice.next(4)).map { _ in dice.next(1_000_000) })
            lists[identifier] = steps
            yaml += "  id\(identifier):\n" + (steps.isEmpty ? "    []\n" : steps.map { "    - \($0.yaml)\n" }.joined())
        }
        return (lists.isEmpty ? "specs: {}\n" : yaml, lists)
    }

    static func text(_ steps: [PropertyTraitTests.Step]?) -> String {
        (steps ?? []).map(\.yaml).joined(separator: "\n")
    }

    /// Styles `twin`'s hand twin as registering under its identifier would: the current list
    /// if its class can take it, nothing otherwise.
    static func register(_ twin: inout Twin, current: [Int: [PropertyTraitTests.Step]]) throws -> Bool {
        let steps = current[twin.identifier] ?? []
        twin.registered = true
        guard SharedPlanPropertyTests.applies(steps, toKind: twin.kind) else { return false }
        twin.reversals = try steps.map { try $0.apply(twin.hand) }
        return true
    }

    static func revert(_ twin: inout Twin) {
        for reversal in twin.reversals.reversed() { reversal(twin.hand) }
        twin.reversals = []
    }

    @Test func liveTargetsMatchTheirTwinsThroughRegistrationsReleasesAndLoads() async throws {
        let registry = try PropertyTraitTests.registry()
        await propertyCheck(count: 200, input: Gen.int(in: 0...1_000_000_000).array(of: 5...40)) { operations in
            let provider = TraitsProvider(registry: registry)
            var twins: [Twin] = []
            var current: [Int: [PropertyTraitTests.Step]] = [:]
            var log: [String] = []
            do {
                for operation in operations {
                    let argument = operation / 6
                    let live = twins.indices.filter { twins[$0].engine != nil }
                    switch operation % 6 {
                    case 0, 1:
                        let (yaml, lists) = Self.spec(argument)
                        log.append("load\n" + yaml)
                        let changed = (0..<Self.identifiers).filter { Self.text(lists[$0]) != Self.text(current[$0]) }
                        let affected = live.filter { twins[$0].registered && changed.contains(twins[$0].identifier) }
                        let possible = affected.allSatisfy {
                            SharedPlanPropertyTests.applies(lists[twins[$0].identifier] ?? [], toKind: twins[$0].kind)
                        }
                        guard possible else {
                            let before = live.map { SharedPlanPropertyTests.state(twins[$0].engine!) }
                            #expect(throws: SpecError.self, "\(log)") {
                                try provider.load(Spec(yaml: yaml, registry: registry))
                            }
                            #expect(
                                live.map { SharedPlanPropertyTests.state(twins[$0].engine!) } == before,
                                "a failed load changed a target: \(log)")
                            continue
                        }
                        let report = try provider.load(Spec(yaml: yaml, registry: registry))
                        #expect(report.targetsTouched >= affected.count, "\(log)")
                        for index in affected {
                            Self.revert(&twins[index])
                            twins[index].reversals = try (lists[twins[index].identifier] ?? []).map {
                                try $0.apply(twins[index].hand)
                            }
                        }
                        current = lists
                    case 2:
                        let kind = argument % 4
                        let engine = SharedPlanPropertyTests.target(kind)
                        var twin = Twin(
                            kind: kind, identifier: argument / 4 % Self.identifiers, engine: engine,
                            hand: SharedPlanPropertyTests.target(kind), original: SharedPlanPropertyTests.state(engine))
                        log.append("register #\(twins.count) (kind \(kind)) as id\(twin.identifier)")
                        let error = provider.register(engine, as: "id\(twin.identifier)")
                        let applied = try Self.register(&twin, current: current)
                        #expect((error == nil) == applied, "\(log)")
                        twins.append(twin)
                    case 3 where !live.isEmpty:
                        let index = live[argument % live.count]
                        log.append("unregister #\(index)")
                        provider.unregister(twins[index].engine!)
                        Self.revert(&twins[index])
                        twins[index].registered = false
                        #expect(SharedPlanPropertyTests.state(twins[index].engine!) == twins[index].original, "\(log)")
                    case 4 where !live.isEmpty:
                        let index = live[argument % live.count]
                        log.append("release #\(index)")
                        twins[index].engine = nil
                    case 5 where !live.isEmpty:
                        let index = live[argument % live.count]
                        let identifier = argument / 64 % Self.identifiers
                        log.append("register #\(index) again as id\(identifier)")
                        if twins[index].registered, twins[index].identifier == identifier {
                            #expect(provider.register(twins[index].engine!, as: "id\(identifier)") == nil)
                            continue
                        }
                        Self.revert(&twins[index])
                        twins[index].identifier = identifier
                        let error = provider.register(twins[index].engine!, as: "id\(identifier)")
                        let applied = try Self.register(&twins[index], current: current)
                        #expect((error == nil) == applied, "\(log)")
                    default:
                        continue
                    }
                    let alive = twins.filter { $0.engine != nil }
                    #expect(
                        alive.map { SharedPlanPropertyTests.state($0.engine!) }
                            == alive.map { SharedPlanPropertyTests.state($0.hand) }, "\(log)")
                    #expect(provider.targetCount == alive.count { $0.registered }, "\(log)")
                    for twin in alive {
                        #expect(
                            provider.identifier(of: twin.engine!) == (twin.registered ? "id\(twin.identifier)" : nil))
                    }
                }
                for index in twins.indices where twins[index].engine != nil {
                    provider.unregister(twins[index].engine!)
                    #expect(SharedPlanPropertyTests.state(twins[index].engine!) == twins[index].original, "\(log)")
                }
            } catch {
                Issue.record("unexpected error \(error) after \(log)")
            }
        }
    }
}

/// The prefetch reads a slot's weak reference at the slot's own address.
@Test func aSlotsWeakReferenceIsItsFirstField() {
    #expect(MemoryLayout<TargetSlot>.offset(of: \TargetSlot.id) == MemoryLayout<UnsafeRawPointer>.size)
}
