import Foundation

/// Figure 7: the figure-4 load (every target's traits change) at growing sizes, in nanoseconds
/// per target, with a fit that says whether the time is linear in the targets: for the five
/// single-property traits and for the demo card's mix.
enum ScalingFigure {
    static let figure = Figure(number: "7", title: "Scaling") { config in
        try rows("5 traits", config) { try ApplyFixture(count: $0).timeFullSwitches($1) }
            + rows("the demo card's mix", config) { try MixFixture<DemoCardMix>(count: $0).timeFullSwitches($1) }
    }

    /// One row per size of `traits`, timed by `timeSwitches(size, plan)`, and the two fits.
    static func rows(
        _ traits: String, _ config: BenchConfig, timeSwitches: (Int, TimingPlan) throws -> TimedPair
    ) throws -> [Row] {
        var rows: [Row] = []
        var points: [(n: Double, ns: Double)] = []
        var cpuPoints: [(n: Double, ns: Double)] = []
        for size in config.scalingSizes {
            let plan = size >= 100_000 ? config.slowTiming : config.timing
            let pair = try timeSwitches(size, plan)
            let perTarget = TimedPair(
                subject: pair.subject.divided(by: Double(size)), baseline: pair.baseline.divided(by: Double(size)))
            points.append((Double(size), pair.subject.median))
            cpuPoints.append((Double(size), pair.subject.cpuMedian))
            rows.append(
                .timed(
                    "7", "reload, \(Format.count(size)) targets × \(traits): time per target", perTarget,
                    unit: .nanoseconds,
                    baseline: "hand-written loop, per target", maxRatio: nil,
                    notes: "whole load \(Format.number(pair.subject.median / 1e6, digits: 3)) ms; "
                        + "CPU \(Format.number(perTarget.subject.cpuMedian)) ns/target"))
        }
        // Elapsed time is what users wait for; thread CPU time leaves out the time other
        // processes on a shared machine had the core. Both fits are reported and judged.
        for (clock, measured) in [("elapsed", points), ("thread CPU time", cpuPoints)] {
            var row = fit(measured, clock: clock, traits: traits)
            if config.smoke {
                // 100 and 1,000 targets fit in cache and say nothing about the order of growth.
                row.verdict = .info
                row.notes += "; smoke sizes: not judged"
            }
            rows.append(row)
        }
        return rows
    }

    static func slope(_ points: [(n: Double, ns: Double)]) -> Double {
        let xs = points.map { log($0.n) }
        let ys = points.map { log($0.ns) }
        let count = Double(points.count)
        let meanX = xs.reduce(0, +) / count
        let meanY = ys.reduce(0, +) / count
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        return sxy / sxx
    }

    /// The slope of log(time) against log(targets) by least squares: 1 is linear. Judged linear
    /// when it is within 0.85…1.15, so cache effects at the largest size do not count as a
    /// change of order.
    static func fit(_ points: [(n: Double, ns: Double)], clock: String, traits: String) -> Row {
        let slope = slope(points)
        let linear = (0.85...1.15).contains(slope)
        let perTarget = points.map { "\(Format.count(Int($0.n))): \(Format.number($0.ns / $0.n)) ns" }
        return Row(
            figure: "7", metric: "fit (\(clock)), \(traits): time ∝ targets^k over \(points.count) sizes", unit: "",
            value: slope,
            p99: nil,
            baseline: "k = 1 (linear)", baselineValue: 1, ratio: slope, target: "0.85 ≤ k ≤ 1.15 (linear)",
            verdict: linear ? .pass : .miss,
            notes: (linear ? "linear" : "not linear") + "; per target " + perTarget.joined(separator: ", "))
    }
}
