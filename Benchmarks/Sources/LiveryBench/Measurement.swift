/// Timing with `ContinuousClock`: warm-up, calibrated batches, interleaved subject and baseline.
#if canImport(Glibc)
import Glibc
import CDispatch
#endif

/// Keeps a value alive in the optimiser's eyes, so the work that made it is not removed.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}

/// Per-operation times of one measured thing, in nanoseconds.
struct Samples: Sendable {
    /// Elapsed (`ContinuousClock`) time per operation, one value per sample: what rows report.
    var nanoseconds: [Double]
    /// This thread's CPU time per operation (`CLOCK_THREAD_CPUTIME_ID`), per sample: on a shared
    /// machine it leaves out the time other processes had the core, so it is the steadier check.
    var cpuNanoseconds: [Double] = []

    var median: Double { Self.percentile(50, of: nanoseconds) }
    var p99: Double { Self.percentile(99, of: nanoseconds) }
    var cpuMedian: Double { Self.percentile(50, of: cpuNanoseconds) }

    /// Nearest-rank percentile.
    static func percentile(_ p: Double, of values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The same samples divided by `count` (time per target instead of per load).
    func divided(by count: Double) -> Samples {
        Samples(nanoseconds: nanoseconds.map { $0 / count }, cpuNanoseconds: cpuNanoseconds.map { $0 / count })
    }
}

/// A subject and its baseline, measured in the same run, sample by sample.
struct TimedPair: Sendable {
    var subject: Samples
    var baseline: Samples

    /// The subject's median over the baseline's median.
    var ratio: Double { subject.median / baseline.median }
    /// The same ratio in CPU time.
    var cpuRatio: Double { subject.cpuMedian / baseline.cpuMedian }
}

/// How much timing to do.
struct TimingPlan: Sendable {
    /// Untimed operations before sampling (at least one of each, to fault everything in).
    var warmupOperations: Int
    /// Samples taken of each side.
    var samples: Int
    /// A sample runs as many operations as fit in this long, so clock overhead stays small.
    var minimumSampleNanoseconds: Double
}

enum Measure {
    /// Times `subject` and `baseline` alternately, sample by sample, so that both see the same
    /// machine: on a shared, noisy machine a drift then moves both, not the ratio.
    ///
    /// Each closure performs one operation. An operation's time is its sample's time divided
    /// by the operations in the sample.
    static func pair(
        _ plan: TimingPlan, subject: () throws -> Void, baseline: () throws -> Void
    ) rethrows -> TimedPair {
        let subjectBatch = try calibrate(plan, subject)
        let baselineBatch = try calibrate(plan, baseline)
        var subjectSamples = Samples(nanoseconds: [])
        var baselineSamples = Samples(nanoseconds: [])
        for _ in 0..<plan.samples {
            subjectSamples.append(try time(subjectBatch, subject))
            baselineSamples.append(try time(baselineBatch, baseline))
        }
        return TimedPair(subject: subjectSamples, baseline: baselineSamples)
    }

    /// Times one thing alone (for baselines that are themselves a measurement of the subject).
    static func single(_ plan: TimingPlan, _ body: () throws -> Void) rethrows -> Samples {
        let batch = try calibrate(plan, body)
        var samples = Samples(nanoseconds: [])
        for _ in 0..<plan.samples { samples.append(try time(batch, body)) }
        return samples
    }

    /// Warms up and returns how many operations make one sample.
    private static func calibrate(_ plan: TimingPlan, _ body: () throws -> Void) rethrows -> Int {
        for _ in 0..<max(plan.warmupOperations, 1) { try body() }
        let one = try time(1, body).wall
        guard one > 0 else { return 1024 }
        return max(1, min(1 << 20, Int((plan.minimumSampleNanoseconds / one).rounded(.up))))
    }

    /// Elapsed and CPU nanoseconds per operation over `count` operations.
    private static func time(_ count: Int, _ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let clock = ContinuousClock()
        let cpuStart = threadCPUNanoseconds()
        let start = clock.now
        for _ in 0..<count { try body() }
        let elapsed = clock.now - start
        let cpu = threadCPUNanoseconds() - cpuStart
        return (elapsed.nanoseconds / Double(count), cpu / Double(count))
    }

    private static func threadCPUNanoseconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return .nan }
        return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
    }
}

extension Samples {
    fileprivate mutating func append(_ time: (wall: Double, cpu: Double)) {
        nanoseconds.append(time.wall)
        cpuNanoseconds.append(time.cpu)
    }
}
