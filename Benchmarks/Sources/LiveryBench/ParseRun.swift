import Foundation
import Livery

/// `LiveryBench --parses SIDE COUNT`: figure 5's full-size document generated once, then COUNT
/// reads of it and nothing else: `json` and `yaml` are the full `Spec(data:format:source:)`,
/// `foundation` is the JSON row's baseline, `JSONSerialization.jsonObject` of the same bytes.
/// Benchmarks/callgrind-parse.sh runs it under callgrind with two counts: the difference is the
/// instructions of the reads alone.
enum ParseRun {
    static func run(side: String, count: Int) throws {
        let bytes = BenchConfig.full.parseBytes
        switch side {
        case "json", "foundation":
            let data = Data(RealisticSpec.text(atLeast: bytes, yaml: false).text.utf8)
            for _ in 0..<count {
                if side == "json" {
                    blackHole(try Spec(data: data, format: .json, source: "large.json"))
                } else {
                    blackHole(try JSONSerialization.jsonObject(with: data))
                }
            }
        case "yaml":
            let data = Data(RealisticSpec.text(atLeast: bytes, yaml: true).text.utf8)
            for _ in 0..<count { blackHole(try Spec(data: data, format: .yaml, source: "large.yaml")) }
        default:
            throw BenchError("side '\(side)': expected json, foundation or yaml")
        }
    }
}
