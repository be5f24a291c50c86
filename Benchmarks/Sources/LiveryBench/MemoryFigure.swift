import CHeapStats
import Foundation
import Livery

/// Figure 6: heap bytes per registered target, read from glibc's allocator (mallinfo2) before
/// and after registering, beside a minimal hand-written registry measured the same way.
enum MemoryFigure {
    static let figure = Figure(number: "6", title: "Memory") { config in
        let count = config.memoryTargets
        let size = config.size(count, issue: 100_000)
        let perIdentifier = 100

        let unique = try registration(count: count, identifiers: count, applied: false)
        let shared = try registration(count: count, identifiers: count / perIdentifier, applied: false)
        let uniqueStyled = try registration(count: count, identifiers: count, applied: true)
        let sharedStyled = try registration(count: count, identifiers: count / perIdentifier, applied: true)
        let styledNotes = "adds the 5 stored reversals per target; baseline adds the saved old values"
        let demo = try demoMixRegistration(count: count)
        return [
            row(
                "registration only: \(size) targets, one identifier each", unique, target: 256,
                notes: "the target applies to this"),
            row("registration only: \(size) targets, \(perIdentifier) per identifier", shared, target: 256, notes: ""),
            row(
                "registered with 5 traits applied: \(size) targets, one identifier each", uniqueStyled, target: nil,
                notes: styledNotes),
            row(
                "registered with 5 traits applied: \(size) targets, \(perIdentifier) per identifier", sharedStyled,
                target: nil, notes: styledNotes),
            row(
                "registered with the demo card's mix applied: \(size) targets, one identifier each", demo,
                target: nil, maxRatio: 2,
                notes: "12 undo records (one per property set) per target; baseline saves the 10 values by hand"),
        ]
    }

    struct Reading {
        var engine: Double
        var hand: Double
        var engineRSS: Double
    }

    /// A row judged against `target` bytes per target, or against `maxRatio` times the
    /// hand-written registry, or not at all.
    private static func row(
        _ metric: String, _ reading: Reading, target: Double?, maxRatio: Double? = nil, notes: String
    ) -> Row {
        let ratio = reading.engine / reading.hand
        let verdict: Row.Verdict =
            target.map { reading.engine <= $0 ? .pass : .miss } ?? maxRatio.map { ratio <= $0 ? .pass : .miss } ?? .info
        let goal = target.map { "≤ \(Format.number($0)) B" } ?? maxRatio.map { "≤ \(Format.number($0))× hand" } ?? "—"
        return Row(
            figure: "6", metric: metric, unit: "B/target", value: reading.engine, p99: nil,
            baseline: "hand-written registry (weak ref + identifier maps)", baselineValue: reading.hand, ratio: ratio,
            target: goal, verdict: verdict,
            notes: [notes, "RSS delta \(Format.number(reading.engineRSS)) B/target"].filter { !$0.isEmpty }.joined(
                separator: "; "))
    }

    /// Heap bytes per target that registering `count` targets under `identifiers` identifiers
    /// costs the engine and the hand-written registry. With `applied`, a spec giving every
    /// identifier the five traits is current first (its own memory is not counted).
    static func registration(count: Int, identifiers: Int, applied: Bool) throws -> Reading {
        let names = (0..<identifiers).map { "w\($0)" }
        let boxes = (0..<count).map { _ in BenchBox() }
        let values = (0..<identifiers).map { BoxValues.make(index: $0, variant: 0) }
        let (engine, rss) = try engineBytes(
            boxes, names, current: applied ? try ApplyFixture.spec(count: identifiers, variant: 0) : nil)
        // Without traits the entries hold nothing more; with traits, the five saved values.
        let hand =
            applied
            ? handBytes(boxes, names, identifiers) { values[$0 % identifiers] }
            : handBytes(boxes, names, identifiers) { _ in () }
        withExtendedLifetime(boxes) {}
        return Reading(engine: engine, hand: hand, engineRSS: rss)
    }

    /// Heap bytes per target that registering `count` ``MixBox``es, one per identifier, costs
    /// the engine with the demo card's mix current, and the hand-written registry saving the
    /// mix's values.
    static func demoMixRegistration(count: Int) throws -> Reading {
        let names = (0..<count).map { ApplyFixture.identifier($0) }
        let boxes = (0..<count).map { _ in MixBox() }
        let values = (0..<count).map { DemoCardMix.values(index: $0, variant: 0) }
        let (engine, rss) = try engineBytes(
            boxes, names, current: try MixFixture<DemoCardMix>.spec(values, registry: .standard))
        let hand = handBytes(boxes, names, count) { values[$0] }
        withExtendedLifetime(boxes) {}
        return Reading(engine: engine, hand: hand, engineRSS: rss)
    }

    /// Heap and resident bytes per target that registering `boxes` costs a provider, box `i`
    /// under `names[i % names.count]`, with `current` loaded first (its own memory not counted).
    private static func engineBytes<Box: AnyObject>(
        _ boxes: [Box], _ names: [String], current: Spec?
    ) throws -> (heap: Double, rss: Double) {
        let provider = TraitsProvider()
        if let current { try provider.load(current) }
        let (heapBefore, rssBefore) = settle()
        for (index, box) in boxes.enumerated() {
            provider.register(box, as: names[index % names.count])
        }
        let (heapAfter, rssAfter) = settle()
        precondition(provider.targetCount == boxes.count)
        withExtendedLifetime(provider) {}
        return (Double(heapAfter - heapBefore) / Double(boxes.count), (rssAfter - rssBefore) / Double(boxes.count))
    }

    /// Heap bytes per target of the hand-written registry, each entry holding `saved(index)`.
    private static func handBytes<Box: AnyObject, Saved>(
        _ boxes: [Box], _ names: [String], _ identifiers: Int, saved: (Int) -> Saved
    ) -> Double {
        var registry = HandRegistry<Saved>()
        let (heapBefore, _) = settle()
        for (index, box) in boxes.enumerated() {
            registry.register(box, as: names[index % identifiers], saving: saved(index))
        }
        let (heapAfter, _) = settle()
        blackHole(registry.count)
        return Double(heapAfter - heapBefore) / Double(boxes.count)
    }

    /// The heap in use and the resident set, after giving free memory back.
    private static func settle() -> (heap: Int, rss: Double) {
        livery_bench_heap_trim()
        return (livery_bench_heap_in_use(), residentBytes())
    }

    private static func residentBytes() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The least a registry that styles weakly held targets by identifier must keep: per target a
/// weak reference and its identifier, found by object and by identifier; with traits applied,
/// the five old values to put back (`Saved` is `BoxValues` then, `Void` otherwise).
struct HandRegistry<Saved> {
    struct Entry {
        weak var object: AnyObject?
        var identifier: String
        var saved: Saved
    }

    private var byObject: [ObjectIdentifier: Entry] = [:]
    private var byIdentifier: [String: [ObjectIdentifier]] = [:]

    var count: Int { byObject.count }

    mutating func register(_ object: AnyObject, as identifier: String, saving saved: Saved) {
        let id = ObjectIdentifier(object)
        byObject[id] = Entry(object: object, identifier: identifier, saved: saved)
        byIdentifier[identifier, default: []].append(id)
    }
}
