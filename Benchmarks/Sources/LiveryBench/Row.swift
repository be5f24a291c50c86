/// One line of the results: a measured value beside the baseline taken in the same run.
struct Row: Codable, Sendable {
    /// Whether a figure met its target.
    enum Verdict: String, Codable, Sendable {
        case pass
        case miss = "MISS"
        /// Measured, but the issue sets no target for it.
        case info
        /// The code it needs does not exist yet; no number is given.
        case notMeasured = "not measured yet"
        /// Measured in a smoke run or on a debug build: the harness ran, but the number is no
        /// measurement of the target, so it neither passes nor misses.
        case notJudged = "not judged"
    }

    /// "4", "5", … as in issue 6.
    var figure: String
    /// What was measured, in words.
    var metric: String
    /// The unit of `value`, `p99` and `baselineValue`.
    var unit: String
    /// The median (or the single reading, for memory).
    var value: Double?
    /// The 99th percentile of the samples, where timing makes one.
    var p99: Double?
    /// What the value is compared with.
    var baseline: String
    /// The baseline's median, in `unit`.
    var baselineValue: Double?
    /// value / baselineValue.
    var ratio: Double?
    /// The same ratio in thread CPU time, where timing makes one (steadier on a shared machine).
    var cpuRatio: Double?
    /// The target, in words ("≤ 5×").
    var target: String
    var verdict: Verdict
    /// Sizes, counts and anything else needed to read the row.
    var notes: String = ""

    /// The row of a figure that threw instead of measuring.
    static func failed(_ figure: Figure, _ error: String) -> Row {
        Row(
            figure: figure.number, metric: figure.title, unit: "", value: nil, p99: nil, baseline: "",
            baselineValue: nil, ratio: nil, target: "", verdict: .miss, notes: "FAILED: \(error)")
    }

    /// The row of a run that is no measurement (smoke sizes, a debug build): a pass or a miss
    /// becomes ``Verdict/notJudged``; the target stays, to say what a real run would judge.
    var unjudged: Row {
        var row = self
        if row.verdict == .pass || row.verdict == .miss { row.verdict = .notJudged }
        return row
    }

    /// A row whose code is not written yet: no number, only what will be measured.
    static func pending(_ figure: String, _ metric: String, baseline: String, target: String, needs: String) -> Row {
        Row(
            figure: figure, metric: metric, unit: "", value: nil, p99: nil, baseline: baseline,
            baselineValue: nil, ratio: nil, target: target, verdict: .notMeasured, notes: "needs \(needs)")
    }

    /// A timed row: the subject's and the baseline's samples, judged against `maxRatio` if given.
    static func timed(
        _ figure: String, _ metric: String, _ pair: TimedPair, unit: TimeUnit = .milliseconds, baseline: String,
        maxRatio: Double?, notes: String = ""
    ) -> Row {
        let ratio = pair.ratio
        let verdict: Verdict = maxRatio.map { ratio <= $0 ? .pass : .miss } ?? .info
        return Row(
            figure: figure, metric: metric, unit: unit.symbol,
            value: unit.convert(pair.subject.median), p99: unit.convert(pair.subject.p99),
            baseline: baseline, baselineValue: unit.convert(pair.baseline.median), ratio: ratio,
            cpuRatio: pair.cpuRatio,
            target: maxRatio.map { "≤ \(Format.number($0))×" } ?? "—", verdict: verdict,
            notes: [notes, "CPU-time ratio \(Format.number(pair.cpuRatio))×"].filter { !$0.isEmpty }.joined(
                separator: "; "))
    }
}

/// How a timed row shows nanoseconds.
enum TimeUnit {
    case nanoseconds, microseconds, milliseconds

    var symbol: String {
        switch self {
        case .nanoseconds: "ns"
        case .microseconds: "µs"
        case .milliseconds: "ms"
        }
    }

    func convert(_ nanoseconds: Double) -> Double {
        switch self {
        case .nanoseconds: nanoseconds
        case .microseconds: nanoseconds / 1e3
        case .milliseconds: nanoseconds / 1e6
        }
    }
}
