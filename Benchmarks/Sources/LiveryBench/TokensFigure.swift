import Foundation
import Livery

/// Figure 11: reading a design tokens document of 5,000 tokens, beside the same variables
/// written as a YAML spec.
enum TokensFigure {
    static let figure = Figure(number: "11", title: "Design tokens") { config in
        let count = config.smoke ? 500 : 5_000
        let (tokens, yaml) = documents(tokens: count)
        let tokensData = Data(tokens.utf8), yamlData = Data(yaml.utf8)
        // Both sides must hold the same variables before either is timed.
        let fromTokens = try Spec(data: tokensData, format: .json, source: "large.tokens.json")
        let fromYAML = try Spec(data: yamlData, format: .yaml, source: "large.yaml")
        guard try fromTokens.resolvedVariables().hasSameContent(as: try fromYAML.resolvedVariables()),
            fromTokens.tokens.count == count
        else {
            throw BenchError("the tokens document and the YAML spec do not hold the same \(count) variables")
        }
        let pair = try Measure.pair(
            config.slowTiming,
            subject: { blackHole(try Spec(data: tokensData, format: .json, source: "large.tokens.json")) },
            baseline: { blackHole(try Spec(data: yamlData, format: .yaml, source: "large.yaml")) })
        let size =
            "\(Format.number(Double(tokensData.count) / 1024, digits: 0)) KiB against \(Format.number(Double(yamlData.count) / 1024, digits: 0)) KiB"
        return [
            .timed(
                "11", "\(config.size(count, issue: 5_000)) tokens: Spec(data:) of a .tokens.json", pair,
                baseline: "the same variables as a YAML spec", maxRatio: 1.5,
                notes: "\(size); colours, dimensions, numbers, font families and aliases, 50 a group")
        ]
    }

    /// A tokens document of `count` tokens in groups of 50, a fifth of each kind, and the YAML
    /// spec of the variables it makes.
    static func documents(tokens count: Int) -> (tokens: String, yaml: String) {
        var groups: [String] = []
        var yaml = "variables:\n"
        for group in 0..<(count / 50) {
            let kind = group % 5
            let type = ["color", "dimension", "number", "fontFamily", "color"][kind]
            var members: [String] = []
            yaml += "  g\(group):\n"
            for index in 0..<50 {
                let seed = group * 50 + index
                let (value, variable): (String, String)
                switch kind {
                case 0:
                    let (r, g, b) = (seed % 256, (seed / 3) % 256, (seed * 7) % 256)
                    value = #"{ "colorSpace": "srgb", "components": [\#(unit(r)), \#(unit(g)), \#(unit(b))] }"#
                    variable = "\"" + Color(red: UInt8(r), green: UInt8(g), blue: UInt8(b)).description + "\""
                case 1:
                    value = #"{ "value": \#(seed % 97), "unit": "px" }"#
                    variable = "\(seed % 97)"
                case 2:
                    value = "\(Double(seed % 400) / 8)"
                    variable = value
                case 3:
                    value = #""Family \#(seed % 13)""#
                    variable = "\"Family \(seed % 13)\""
                default:
                    let target = "g\(group - 4).t\((index * 7) % 50)"
                    value = #""{\#(target)}""#
                    variable = "\"@\(target)\""
                }
                members.append(#"      "t\#(index)": { "$value": \#(value) }"#)
                yaml += "    t\(index): \(variable)\n"
            }
            groups.append(
                "  \"g\(group)\": {\n    \"$type\": \"\(type)\",\n" + members.joined(separator: ",\n") + "\n  }")
        }
        return ("{\n" + groups.joined(separator: ",\n") + "\n}\n", yaml + "specs: {}\n")
    }

    /// A byte as the component the Color Module writes: its fraction of 255.
    private static func unit(_ byte: Int) -> String {
        String(Double(byte) / 255)
    }
}
