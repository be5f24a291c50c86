import Livery

/// `LiveryBench --switches MIX SIDE COUNT`: figure 4's fixture for one mix at 1,000 targets,
/// spec A applied, then COUNT switches made by one side (`engine`: the provider's loads; `hand`:
/// the hand-written revert-and-assign loop; `assign`: the loop that only assigns), and nothing else. Benchmarks/callgrind-apply.sh runs it under
/// callgrind with two counts: the difference is the instructions of the switches alone.
enum SwitchRun {
    static let targets = 1_000
    /// The mixes by the names the script passes, in figure 4's order.
    static let mixes = ["five", "border", "demo", "set", "glow", "glow-keypath", "glow-general"]

    /// Who makes the switches.
    enum Side: String {
        case engine, hand, assign
    }

    /// Runs `count` switches of `mix` on `side`; throws for a name it does not know.
    static func run(mix: String, side: String, count: Int) throws {
        guard let side = Side(rawValue: side) else {
            throw BenchError("side '\(side)': expected engine, hand or assign")
        }
        switch mix {
        case "five": try five(side: side, count: count)
        case "border": try run(FiveWithBorder.self, side: side, count: count)
        case "demo": try run(DemoCardMix.self, side: side, count: count)
        case "set": try run(FiveTweakables.self, side: side, count: count)
        case "glow": try run(CustomGlow.self, side: side, count: count)
        case "glow-keypath": try run(CustomGlow.self, glow: KeyPathGlow.self, side: side, count: count)
        case "glow-general": try run(CustomGlow.self, glow: GeneralGlow.self, side: side, count: count)
        default: throw BenchError("mix '\(mix)': expected one of \(mixes.joined(separator: ", "))")
        }
    }

    private static func five(side: Side, count: Int) throws {
        let fixture = try ApplyFixture(count: targets)
        try fixture.loadAndCheck(0)
        try fixture.handSwitchAndCheck(0)
        for index in 0..<count {
            let next = (index + 1) & 1
            switch side {
            case .engine: blackHole(try fixture.provider.load(fixture.specs[next]).traitsApplied)
            case .hand: fixture.hand.switchTo(fixture.values[next])
            case .assign: fixture.hand.assignOnly(fixture.values[next])
            }
        }
        blackHole(fixture.checksum)
    }

    /// `glow` is the trait registered as `Glow` (figure 4's is ``Glow``).
    private static func run<Mix: ApplyMix>(
        _: Mix.Type, glow: any Trait.Type = Glow.self, side: Side, count: Int
    ) throws {
        let fixture = try MixFixture<Mix>(count: targets, glow: glow)
        try fixture.provider.load(fixture.specs[0])
        fixture.handSwitch(to: 0)
        try fixture.checkAgree()
        for index in 0..<count {
            let next = (index + 1) & 1
            switch side {
            case .engine: blackHole(try fixture.provider.load(fixture.specs[next]).traitsApplied)
            case .hand: fixture.handSwitch(to: next)
            case .assign: fixture.assignOnly(to: next)
            }
        }
        // Both sides end on one spec: the engine's boxes must hold what the hand's do.
        guard side == .engine else { return }
        fixture.handSwitch(to: count & 1)
        try fixture.checkAgree()
    }
}
