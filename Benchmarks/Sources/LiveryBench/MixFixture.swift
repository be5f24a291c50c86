import Foundation
import Livery

/// `count` ``MixBox``es, one per identifier `w0…`, registered on a provider whose registry knows
/// `Glow` (``Glow`` unless told otherwise), and as many for the hand-written loop; specs A and B of `Mix` that change every
/// identifier's values.
final class MixFixture<Mix: ApplyMix> {
    let count: Int
    let registry: TraitRegistry
    let provider: TraitsProvider
    let engineBoxes: [MixBox]
    let handBoxes: [MixBox]
    let values: [[Mix.Values]]
    let specs: [Spec]
    /// What each hand box had before its current values (nil: never assigned).
    private var saved: [Mix.Values?]

    init(count: Int, glow: any Trait.Type = Glow.self) throws {
        self.count = count
        registry = TraitRegistry()
        try registry.register(glow)
        provider = TraitsProvider(registry: registry)
        engineBoxes = (0..<count).map { _ in MixBox() }
        handBoxes = (0..<count).map { _ in MixBox() }
        let values = (0..<2).map { variant in (0..<count).map { Mix.values(index: $0, variant: variant) } }
        self.values = values
        saved = Array(repeating: nil, count: count)
        let registry = self.registry
        specs = try values.map { try MixFixture.spec($0, registry: registry) }
        for (index, box) in engineBoxes.enumerated() {
            if let error = provider.register(box, as: ApplyFixture.identifier(index)) { throw error }
        }
    }

    /// The spec giving identifier `w<i>` the mix's traits with `values[i]`.
    static func spec(_ values: [Mix.Values], registry: TraitRegistry) throws -> Spec {
        var json = #"{"specs":{"#
        for (index, value) in values.enumerated() {
            json += (index > 0 ? "," : "") + "\"\(ApplyFixture.identifier(index))\":" + Mix.specJSON(value)
        }
        json += "}}"
        let limits = ReaderLimits(maxBytes: 256 << 20, maxDepth: 16, maxNodes: 50_000_000)
        return try Spec(data: Data(json.utf8), format: .json, source: "mix.json", registry: registry, limits: limits)
    }

    /// The hand-written load: for every box, put back what the last values replaced, remember
    /// what it holds, and assign `variant`'s values.
    func handSwitch(to variant: Int) {
        let values = self.values[variant]
        for index in handBoxes.indices {
            let box = handBoxes[index]
            if let old = saved[index] { Mix.assign(old, to: box) }
            saved[index] = Mix.read(box)
            Mix.assign(values[index], to: box)
        }
    }

    /// Assigns `variant`'s values to the hand-written loop's boxes and keeps nothing to undo
    /// with (`LiveryBench --switches MIX assign`; the hand-written loop's saved values go stale).
    func assignOnly(to variant: Int) {
        Self.assign(values[variant], to: handBoxes)
    }

    /// The assign-only loop: box `i` is given `values[i]`, and nothing is kept.
    private static func assign(_ values: [Mix.Values], to boxes: [MixBox]) {
        for index in boxes.indices { Mix.assign(values[index], to: boxes[index]) }
    }

    /// Checks that the engine's boxes hold what the hand-written loop's do, box by box (where a
    /// mix sets a property twice, as the demo card's text colour, both hold the last).
    func checkAgree() throws {
        for index in 0..<count where Mix.read(engineBoxes[index]) != Mix.read(handBoxes[index]) {
            throw BenchError(
                "\(Mix.title), box \(index): engine \(Mix.read(engineBoxes[index])), hand \(Mix.read(handBoxes[index]))"
            )
        }
    }

    /// Times switches A→B→A… on the engine beside the hand-written loop.
    func timeFullSwitches(_ plan: TimingPlan) throws -> TimedPair {
        try provider.load(specs[0])
        handSwitch(to: 0)
        try checkAgree()
        var engineNext = 1
        var handNext = 1
        let pair = try Measure.pair(
            plan,
            subject: {
                blackHole(try provider.load(specs[engineNext]).traitsApplied)
                engineNext ^= 1
            },
            baseline: {
                handSwitch(to: handNext)
                handNext ^= 1
            })
        // The two sides ran different numbers of switches: bring the hand-written side to the
        // engine's spec, then check they agree.
        handSwitch(to: engineNext ^ 1)
        try checkAgree()
        return pair
    }

    /// Times switches A→B→A… by a loop that only assigns each box its values, on boxes of its
    /// own: the property writes alone, the second baseline of figure 4's rows.
    func timeAssignOnly(_ plan: TimingPlan) throws -> Samples {
        let boxes = (0..<count).map { _ in MixBox() }
        let values = self.values
        var next = 0
        let samples = Measure.single(plan) {
            Self.assign(values[next], to: boxes)
            next ^= 1
        }
        Self.assign(values[0], to: boxes)
        for index in boxes.indices {
            let expected = MixBox()
            Mix.assign(values[0][index], to: expected)
            guard Mix.read(boxes[index]) == Mix.read(expected) else {
                throw BenchError("\(Mix.title), assign-only loop: box \(index) holds \(Mix.read(boxes[index]))")
            }
        }
        return samples
    }
}
