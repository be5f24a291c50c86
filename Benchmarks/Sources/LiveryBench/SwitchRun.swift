import Livery

/// `LiveryBench --switches MIX SIDE COUNT`: figure 4's fixture for one mix at 1,000 targets,
/// spec A applied, then COUNT switches made by one side (`engine`: the provider's loads; `hand`:
/// the hand-written loop), and nothing else. Benchmarks/callgrind-apply.sh runs it under
/// callgrind with two counts: the difference is the instructions of the switches alone.
enum SwitchRun {
    static let targets = 1_000
    /// The mixes by the names the script passes, in figure 4's order.
    static let mixes = ["five", "border", "demo", "set", "glow", "glow-general"]

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
        case "glow-general": try generalGlow(engine: engine, count: count)
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

    private static func run<Mix: ApplyMix>(_: Mix.Type, engine: Bool, count: Int) throws {
        let fixture = try MixFixture<Mix>(count: targets)
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
    }

    /// `Glow` written as a general trait (``GeneralGlow``), on the engine side; the hand side is
    /// `glow`'s. What the general path costs a custom trait registered from another module.
    private static func generalGlow(engine: Bool, count: Int) throws {
        guard engine else { return try run(CustomGlow.self, engine: false, count: count) }
        let registry = TraitRegistry()
        try registry.register(GeneralGlow.self)
        let provider = TraitsProvider(registry: registry)
        let boxes = (0..<targets).map { _ in MixBox() }
        let specs = try (0..<2).map { variant in
            try MixFixture<CustomGlow>.spec(
                (0..<targets).map { CustomGlow.values(index: $0, variant: variant) }, registry: registry)
        }
        for (index, box) in boxes.enumerated() {
            if let error = provider.register(box, as: ApplyFixture.identifier(index)) { throw error }
        }
        try provider.load(specs[0])
        for index in 0..<count {
            blackHole(try provider.load(specs[(index + 1) & 1]).traitsApplied)
        }
    }
}

/// ``Glow`` as a program writes a trait that does its own work: `apply(to:)` and a ``Reversal``,
/// through the provider's general path.
struct GeneralGlow: Trait {
    typealias Target = MixBox
    static let typeName = "Glow"
    var radius: Double
    var color: Color

    func apply(to box: MixBox) throws -> Reversal<MixBox> {
        let old = (radius: box.glowRadius, color: box.glowColor)
        box.glowRadius = radius
        box.glowColor = color
        return Reversal {
            $0.glowRadius = old.radius
            $0.glowColor = old.color
        }
    }
}
