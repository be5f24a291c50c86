import Livery

/// Figure 4: the apply engine against a hand-written loop, and minimal work.
enum ApplyFigure {
    static let figure = Figure(number: "4", title: "Apply engine") { config in
        try allChanged(config)
            + mix(FiveWithBorder.self, traits: 5, config) + mix(DemoCardMix.self, traits: 5, config)
            + mix(FiveTweakables.self, traits: 1, config) + mix(CustomGlow.self, traits: 1, config)
            + oneChanged(config)
    }

    /// Loading spec B over spec A of `Mix`, every identifier changed, beside the hand-written
    /// loop doing the same property work, as ``allChanged(_:)`` does for the five.
    static func mix<Mix: ApplyMix>(_: Mix.Type, traits: Int, _ config: BenchConfig) throws -> [Row] {
        let fixture = try MixFixture<Mix>(count: config.applyTargets)
        let pair = try fixture.timeFullSwitches(config.timing)
        let perTarget = pair.subject.median / Double(fixture.count)
        let metric = "load B over A: \(config.size(fixture.count, issue: 10_000)) targets × \(Mix.title), all changed"
        let work = "\(traits) \(traits == 1 ? "trait" : "traits") per target, new values set in place"
        return [
            .timed(
                "4", metric, pair, baseline: "hand-written revert A + assign B loop", maxRatio: 5,
                notes: "\(work); \(Format.number(perTarget)) ns/target"),
            assignOnlyRow(metric, engine: pair.subject, assignOnly: try fixture.timeAssignOnly(config.timing)),
        ]
    }

    /// Loading spec B over spec A where every identifier's five traits differ: per target, the
    /// engine reverts A's five traits (newest first) and applies B's five. The baseline does the
    /// same reads and writes by hand. Parsing is not timed: both specs are built beforehand.
    static func allChanged(_ config: BenchConfig) throws -> [Row] {
        let fixture = try ApplyFixture(count: config.applyTargets)
        let pair = try fixture.timeFullSwitches(config.timing)
        let perTarget = pair.subject.median / Double(fixture.count)
        let metric = "load B over A: \(config.size(fixture.count, issue: 10_000)) targets × 5 traits, all changed"
        return [
            .timed(
                "4", metric, pair, baseline: "hand-written revert A + assign B loop", maxRatio: 5,
                notes: "5 traits per target, new values set in place; \(Format.number(perTarget)) ns/target"),
            assignOnlyRow(metric, engine: pair.subject, assignOnly: try fixture.timeAssignOnly(config.timing)),
        ]
    }

    /// The same load beside a loop that only assigns the new values: what the engine's
    /// property writes come to when an edit keeps every target's traits (new values are then
    /// set in place), with none of the bookkeeping that makes a load undoable. The issue's
    /// target is on the revert-and-assign loop above; this row says how far the engine is
    /// from the writes alone. The engine's times are the row above's.
    static func assignOnlyRow(_ metric: String, engine: Samples, assignOnly: Samples) -> Row {
        .timed(
            "4", metric + ", against the writes alone", TimedPair(subject: engine, baseline: assignOnly),
            baseline: "hand-written assign-B-only loop", maxRatio: nil)
    }

    /// Loading a spec that differs from the current one in one identifier of 1,000 (one target
    /// each), beside a load where all 1,000 change, on a second provider with the same targets.
    static func oneChanged(_ config: BenchConfig) throws -> [Row] {
        let count = config.oneChangedIdentifiers
        let changedIndex = count / 2
        let changedIdentifier = ApplyFixture.identifier(changedIndex)
        let allFixture = try ApplyFixture(count: count)
        let oneFixture = try ApplyFixture(count: count, variants: 1)
        var values = oneFixture.values[0]
        values[changedIndex] = BoxValues.make(index: changedIndex, variant: 1)
        let specA = oneFixture.specs[0]
        let specC = try ApplyFixture.spec(values)

        try oneFixture.loadAndCheck(0)
        try allFixture.loadAndCheck(0)
        let report = try oneFixture.provider.load(specC)
        guard oneFixture.engineBoxes[changedIndex].values == values[changedIndex] else {
            throw BenchError("one changed: \(changedIdentifier) was not restyled")
        }
        try oneFixture.provider.load(specA)

        var oneNext = [specC, specA]
        var allNext = 1
        let pair = try Measure.pair(
            config.timing,
            subject: {
                blackHole(try oneFixture.provider.load(oneNext[0]).targetsTouched)
                oneNext.swapAt(0, 1)
            },
            baseline: {
                blackHole(try allFixture.provider.load(allFixture.specs[allNext]).targetsTouched)
                allNext ^= 1
            })
        blackHole(oneFixture.checksum + allFixture.checksum)

        let registered = 1  // one target per identifier
        let touchedRight = report.targetsTouched == registered && report.changedIdentifiers == [changedIdentifier]
        let size = config.size(count, issue: 1_000)
        return [
            .timed(
                "4", "load with 1 of \(size) identifiers changed", pair, unit: .microseconds,
                baseline: "load with all \(Format.count(count)) changed (same targets)", maxRatio: nil,
                notes: "\(Format.number(pair.subject.median / Double(count))) ns per identifier compared"),
            Row(
                figure: "4", metric: "targets touched by that load (LoadReport)", unit: "targets",
                value: Double(report.targetsTouched), p99: nil,
                baseline: "targets registered under '\(changedIdentifier)'", baselineValue: Double(registered),
                ratio: Double(report.targetsTouched) / Double(registered), target: "= 1 (only that identifier's)",
                verdict: touchedRight ? .pass : .miss,
                notes: "changedIdentifiers = \(report.changedIdentifiers.prefix(3)); \(report)"),
        ]
    }
}
