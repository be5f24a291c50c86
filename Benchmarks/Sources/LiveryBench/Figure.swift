/// One figure of issue 6 (or one part of it): a function that measures and returns its rows.
struct Figure: Sendable {
    /// "4", as in the issue.
    var number: String
    var title: String
    var run: @Sendable (BenchConfig) throws -> [Row]
}

/// Sizes and repetitions: the full run, or the smoke run CI can afford.
struct BenchConfig: Sendable {
    var smoke: Bool
    var timing: TimingPlan
    /// Fewer samples for the big, slow cases (100,000 targets, 1 MiB specs).
    var slowTiming: TimingPlan
    /// Targets in the main apply figure (10,000 in the issue).
    var applyTargets: Int
    /// Identifiers in the "one changed" case (1,000 in the issue).
    var oneChangedIdentifiers: Int
    /// Approximate size of the generated parse specs (1 MiB in the issue).
    var parseBytes: Int
    /// Targets registered for the memory figure (100,000 in the issue).
    var memoryTargets: Int
    /// Sizes of the scaling figure.
    var scalingSizes: [Int]

    static let full = BenchConfig(
        smoke: false,
        timing: TimingPlan(warmupOperations: 3, samples: 21, minimumSampleNanoseconds: 5_000_000),
        slowTiming: TimingPlan(warmupOperations: 1, samples: 7, minimumSampleNanoseconds: 5_000_000),
        applyTargets: 10_000, oneChangedIdentifiers: 1_000, parseBytes: 1 << 20, memoryTargets: 100_000,
        scalingSizes: [100, 1_000, 10_000, 100_000])

    static let smoke = BenchConfig(
        smoke: true,
        timing: TimingPlan(warmupOperations: 1, samples: 5, minimumSampleNanoseconds: 1_000_000),
        slowTiming: TimingPlan(warmupOperations: 1, samples: 3, minimumSampleNanoseconds: 1_000_000),
        applyTargets: 500, oneChangedIdentifiers: 100, parseBytes: 32 << 10, memoryTargets: 2_000,
        scalingSizes: [100, 1_000])

    /// "10,000", or "500 (smoke)".
    func size(_ count: Int, issue: Int) -> String {
        count == issue ? Format.count(count) : "\(Format.count(count)) (smoke; issue: \(Format.count(issue)))"
    }
}

enum Figures {
    /// Every figure, in the issue's order.
    static let all: [Figure] = [
        ReloadFigure.figure, RemoteFigure.figure, ServeFigure.figure,
        ApplyFigure.figure, ParseFigure.figure, MemoryFigure.figure, DaemonMemoryFigure.figure, ScalingFigure.figure,
        EtcdFigure.figure, FleetFigure.figure, WebFigure.figure, TokensFigure.figure, EnvironmentsFigure.figure,
        OFREPFigure.figure, VerifyFigure.figure,
    ]
}
