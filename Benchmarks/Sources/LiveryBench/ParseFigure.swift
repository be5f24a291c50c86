import Foundation
import Livery
import Yams

/// Figure 5: reading a 1 MiB spec, beside the bare parsers of the same bytes.
enum ParseFigure {
    static let figure = Figure(number: "5", title: "Parsing") { config in
        try json(config) + yaml(config)
    }

    /// The reader alone (`SpecNode.parse`) and the whole `Spec(data:format:source:)` (read,
    /// resolve for the base and both themes, decode every trait), against `JSONSerialization`.
    static func json(_ config: BenchConfig) throws -> [Row] {
        let (text, identifiers) = RealisticSpec.text(atLeast: config.parseBytes, yaml: false)
        let data = Data(text.utf8)
        let bare: () throws -> Void = {
            blackHole(try JSONSerialization.jsonObject(with: data))
        }
        return try rows(
            format: .json, data: data, identifiers: identifiers, config: config, bare: bare,
            bareName: "Foundation JSONSerialization.jsonObject")
    }

    /// The same against Yams's `compose` (libyaml's events into a `Node` tree with marks, the
    /// usual way Swift reads YAML with places), of a `String` made from the same bytes. Yams is
    /// linked here only, for this baseline; see Benchmarks/README.md for how its copy of libyaml
    /// and Debian's, which the reader links, share this executable.
    static func yaml(_ config: BenchConfig) throws -> [Row] {
        let (text, identifiers) = RealisticSpec.text(atLeast: config.parseBytes, yaml: true)
        let data = Data(text.utf8)
        let bare: () throws -> Void = {
            blackHole(try Yams.compose(yaml: String(decoding: data, as: UTF8.self)))
        }
        return try rows(
            format: .yaml, data: data, identifiers: identifiers, config: config, bare: bare,
            bareName: "Yams.compose (String from the bytes + Node tree)")
    }

    private static func rows(
        format: SpecFormat, data: Data, identifiers: Int, config: BenchConfig, bare: () throws -> Void,
        bareName: String
    ) throws -> [Row] {
        let source = "large.\(format.rawValue)"
        // Check the content is what it claims before timing it.
        let spec = try Spec(data: data, format: format, source: source)
        guard spec.identifiers.count == identifiers, spec.themes == ["dark", "contrast"] else {
            throw BenchError(
                "generated \(format) spec has \(spec.identifiers.count) identifiers, expected \(identifiers)")
        }
        let traits = spec.identifiers.reduce(0) { $0 + spec.traits(for: $1).count }
        let reader = try Measure.pair(
            config.slowTiming,
            subject: { blackHole(try SpecNode.parse(data, format: format, source: source)) },
            baseline: bare)
        let full = try Measure.pair(
            config.slowTiming,
            subject: { blackHole(try Spec(data: data, format: format, source: source)) },
            baseline: bare)
        let size = "\(Format.number(Double(data.count) / 1_048_576, digits: 2)) MiB"
        let name = format.rawValue.uppercased()
        let notes =
            "\(size), \(Format.count(identifiers)) identifiers, \(Format.count(traits)) resolved traits, 2 themes"
        return [
            .timed(
                "5", "\(name) \(size): reader alone (SpecNode.parse)", reader, baseline: bareName, maxRatio: 3,
                notes: notes),
            .timed(
                "5", "\(name) \(size): Spec(data:format:source:) (read + resolve 3 themes + decode)", full,
                baseline: bareName, maxRatio: 3, notes: notes),
        ]
    }
}
