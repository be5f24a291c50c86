import Livery

/// `LiveryBench --switches MIX SIDE COUNT`: figure 4's fixture for one mix at 1,000 targets,
/// spec A applied, then COUNT switches made by one side (`engine`: the provider's loads; `hand`:
/// the hand-written loop), and nothing else. Benchmarks/callgrind-apply.sh runs it under
/// callgrind with two counts: the difference is the instructions of the switches alone.
enum SwitchRun {
    static let targets = 1_000
    /// The mixes by the names the script passes, in figure 4's order.
    static let mixes = ["five", "border", "demo", "set", "glow", "glow-keypath", "glow-general"]

    /// Runs `count` switches of `mix` on `side`; throws for a name it does not know.
    static func run(mix: String, side: String, count: Int) throws {
        guard side == "engine" || side == "hand" else { throw BenchError("side '\(side)': expected engine or hand") }
        let engine = side == "engine"
        switch mix {
        case "five": try five(engine: engine, count: count)
        case "border": try run(FiveWithBorder.self, engine: engine, count: count)
        case "demo": try run(DemoCardMix.self, engine: engine, count: count)
        case "set": try run(FiveTweakables.self, engine: engine, count: count)
        case "glow": try run(CustomGlow.self, engine: engine, count: count)
        case "glow-keypath": try run(CustomGlow.self, glow: KeyPathGlow.self, engine: engine, count: count)
        case "glow-general": try run(CustomGlow.self, glow: GeneralGlow.self, engine: engine, count: count)
        default: throw BenchError("mix '\(mix)': expected one of \(mixes.joined(separator: ", "))")
        }
    }

    private static func five(engine: Bool, count: Int) throws {
        let fixture = try ApplyFixture(count: targets)
        try fixture.loadAndCheck(0)
        try fixture.handSwitchAndCheck(0)
        for index in 0..<count {
            if engine {
                blackHole(try fixture.provider.load(fixture.specs[(index + 1) & 1]).traitsApplied)
            } else {
                fixture.hand.switchTo(fixture.values[(index + 1) & 1])
            }
        }
        blackHole(fixture.checksum)
    }

    /// `glow` is the trait registered as `Glow` (figure 4's is ``Glow``).
    private static func run<Mix: ApplyMix>(
        _: Mix.Type, glow: any Trait.Type = Glow.self, engine: Bool, count: Int
    ) throws {
        let fixture = try MixFixture<Mix>(count: targets, glow: glow)
        try fixture.provider.load(fixture.specs[0])
        fixture.handSwitch(to: 0)
        try fixture.checkAgree()
        for index in 0..<count {
            if engine {
                blackHole(try fixture.provider.load(fixture.specs[(index + 1) & 1]).traitsApplied)
            } else {
                fixture.handSwitch(to: (index + 1) & 1)
            }
        }
        // Both sides end on one spec: the engine's boxes must hold what the hand's do.
        guard engine else { return }
        fixture.handSwitch(to: count & 1)
        try fixture.checkAgree()
    }
}
