import Foundation
import Livery

/// `LiveryBench --tokens SIDE COUNT`: figure 11's documents generated once, then COUNT reads of
/// one side (`tokens`: the 5,000-token document; `yaml`: the same variables as a YAML spec, the
/// figure's baseline), and nothing else. Benchmarks/callgrind-tokens.sh runs it under callgrind
/// with two counts: the difference is the instructions of the reads alone.
enum TokensRun {
    static func run(side: String, count: Int) throws {
        let (tokens, yaml) = TokensFigure.documents(tokens: 5_000)
        let (data, format, source): (Data, SpecFormat, String)
        switch side {
        case "tokens": (data, format, source) = (Data(tokens.utf8), .json, "large.tokens.json")
        case "yaml": (data, format, source) = (Data(yaml.utf8), .yaml, "large.yaml")
        default: throw BenchError("side '\(side)': expected tokens or yaml")
        }
        for _ in 0..<count { blackHole(try Spec(data: data, format: format, source: source)) }
    }
}
