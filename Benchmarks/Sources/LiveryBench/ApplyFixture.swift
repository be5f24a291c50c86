import Foundation
import Livery
import Synchronization

/// `count` targets, one per identifier `w0…`, registered on a provider, and the same number of
/// boxes for the hand-written loop; specs whose five traits differ for every identifier.
final class ApplyFixture {
    let count: Int
    let provider = TraitsProvider()
    let engineBoxes: [BenchBox]
    var hand: HandStyler
    /// Values per variant (0 = A, 1 = B, …), per target.
    private(set) var values: [[BoxValues]] = []
    private(set) var specs: [Spec] = []

    /// Builds `variants` specs (each changes every identifier's values) and registers the targets.
    /// Nothing is applied yet.
    init(count: Int, variants: Int = 2) throws {
        self.count = count
        engineBoxes = (0..<count).map { _ in BenchBox() }
        hand = HandStyler(boxes: (0..<count).map { _ in BenchBox() })
        for variant in 0..<variants {
            values.append((0..<count).map { BoxValues.make(index: $0, variant: variant) })
            specs.append(try Self.spec(count: count, variant: variant))
        }
        for (index, box) in engineBoxes.enumerated() {
            if let error = provider.register(box, as: Self.identifier(index)) { throw error }
        }
    }

    static func identifier(_ index: Int) -> String { "w\(index)" }

    /// Specs already built, by target count and variant: figures 4, 6 and 7 use the same ones,
    /// and a 100,000-identifier spec takes a while to build.
    private static let built = Mutex<[[Int]: Spec]>([:])

    /// The spec giving identifier `w<i>` the values `BoxValues.make(index: i, variant: variant)`.
    static func spec(count: Int, variant: Int) throws -> Spec {
        if let spec = built.withLock({ $0[[count, variant]] }) { return spec }
        let spec = try spec((0..<count).map { BoxValues.make(index: $0, variant: variant) })
        built.withLock { $0[[count, variant]] = spec }
        return spec
    }

    /// A spec giving identifier `w<i>` the five traits of `values[i]`.
    static func spec(_ values: [BoxValues]) throws -> Spec {
        var json = "{\"specs\":{"
        json.reserveCapacity(values.count * 260)
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            json += "\"\(identifier(index))\":" + value.specJSON
        }
        json += "}}"
        // 100,000 identifiers × 5 traits are far beyond the default limits for one pushed file.
        let limits = ReaderLimits(maxBytes: 256 << 20, maxDepth: 16, maxNodes: 50_000_000)
        return try Spec(data: Data(json.utf8), format: .json, source: "apply-\(values.count).json", limits: limits)
    }

    /// Loads spec `variant` on the engine side and checks every box now holds its values.
    @discardableResult
    func loadAndCheck(_ variant: Int) throws -> LoadReport {
        let report = try provider.load(specs[variant])
        for (index, box) in engineBoxes.enumerated() where box.values != values[variant][index] {
            throw BenchError("engine: box \(index) holds \(box.values), expected \(values[variant][index])")
        }
        return report
    }

    /// Hand-assigns `variant` and checks the boxes match the engine's for the same spec.
    func handSwitchAndCheck(_ variant: Int) throws {
        hand.switchTo(values[variant])
        for (index, box) in hand.boxes.enumerated() where box.values != values[variant][index] {
            throw BenchError("hand loop: box \(index) holds \(box.values), expected \(values[variant][index])")
        }
    }

    /// Sum of every box's checksum on both sides.
    var checksum: Double {
        engineBoxes.reduce(0) { $0 + $1.checksum } + hand.boxes.reduce(0) { $0 + $1.checksum }
    }

    /// Times full switches A→B→A… on the engine beside the hand-written loop doing the same
    /// reverts and assignments. Both start with A applied and every operation is one switch.
    func timeFullSwitches(_ plan: TimingPlan) throws -> TimedPair {
        try loadAndCheck(0)
        try handSwitchAndCheck(0)
        var engineNext = 1
        var handNext = 1
        let values = self.values
        let pair = try Measure.pair(
            plan,
            subject: {
                let report = try provider.load(specs[engineNext])
                blackHole(report.traitsApplied)
                engineNext ^= 1
            },
            baseline: {
                hand.switchTo(values[handNext])
                handNext ^= 1
            })
        // Both sides end on the same spec; check they agree, box by box.
        try loadAndCheck(engineNext ^ 1)
        try handSwitchAndCheck(engineNext ^ 1)
        blackHole(checksum)
        return pair
    }
}

extension ApplyFixture {
    /// Times switches A→B→A… by a loop that only assigns (``HandStyler/assignOnly(_:)``), on
    /// boxes of its own: the property writes alone, the second baseline of figure 4's rows.
    func timeAssignOnly(_ plan: TimingPlan) throws -> Samples {
        let assigner = HandStyler(boxes: (0..<count).map { _ in BenchBox() })
        let values = self.values
        var next = 0
        let samples = Measure.single(plan) {
            assigner.assignOnly(values[next])
            next ^= 1
        }
        assigner.assignOnly(values[0])
        for (index, box) in assigner.boxes.enumerated() where box.values != values[0][index] {
            throw BenchError("assign-only loop: box \(index) holds \(box.values), expected \(values[0][index])")
        }
        return samples
    }
}

/// A failed check inside a benchmark: the numbers would mean nothing.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
