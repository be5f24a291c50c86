import Livery

/// `LiveryBench --stylesheets SIDE COUNT`: figure 10's realistic 64 KiB spec read once, then
/// COUNT renderings of one side (`css`: its stylesheet, every theme; `json`: its bundle JSON,
/// the figure's baseline), and nothing else. Benchmarks/callgrind-stylesheet.sh runs it under
/// callgrind with two counts: the difference is the instructions of the renderings alone.
enum StyleSheetRun {
    static func run(side: String, count: Int) throws {
        let spec = try Spec(json: RealisticSpec.text(atLeast: 64 << 10, yaml: false).text)
        switch side {
        case "css":
            for _ in 0..<count { blackHole(try spec.styleSheet()) }
        case "json":
            for _ in 0..<count { blackHole(spec.bundleJSON) }
        default:
            throw BenchError("side '\(side)': expected css or json")
        }
    }
}
