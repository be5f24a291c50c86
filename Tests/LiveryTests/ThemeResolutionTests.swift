import Foundation
import PropertyBased
import Testing

@testable import Livery

/// A theme re-decodes only the entries its overrides can change and reuses the base's traits
/// for the rest. For random specs with chains of references, `~functions`, mapping variables,
/// `Inherit` and themes, each theme must resolve exactly as the same spec with the theme's
/// overrides written into its variables would.
@Suite struct ThemeResolutionTests {
    /// A random spec, built from a list of numbers: base variables, two themes, six identifiers.
    struct Model {
        var colors: [String] = []
        var sizes: [String] = []
        var offsetWidth = "1"
        var themes: [[(path: [String], value: String)]] = []
        var identifiers: [[String]] = []

        init(_ seeds: [Int]) {
            var next = seeds.makeIterator()
            func pick(_ count: Int) -> Int { (next.next() ?? 7) % count }
            func colour(below index: Int) -> String {
                let literal = "\"#\(String(format: "%02X", pick(256)))40\(String(format: "%02X", pick(256)))\""
                guard index > 0 else { return literal }
                switch pick(4) {
                case 0: return literal
                case 1: return "\"@colors.c\(pick(index))\""
                case 2: return "\"~alpha(@colors.c\(pick(index)), 0.5)\""
                default: return "\"~mix(@colors.c\(pick(index)), @colors.c\(pick(index)), 0.25)\""
                }
            }
            func size(below index: Int) -> String {
                index > 0 && pick(2) == 0 ? "\"@sizes.s\(pick(index))\"" : "\(1 + pick(40))"
            }
            colors = (0..<6).map { colour(below: $0) }
            sizes = (0..<4).map { size(below: $0) }
            offsetWidth = pick(2) == 0 ? "\"@sizes.s\(pick(4))\"" : "\(pick(9))"
            themes = (0..<2).map { _ in
                (0..<(1 + pick(3))).map { _ in
                    switch pick(3) {
                    case 0:
                        let index = pick(6)
                        return (["colors", "c\(index)"], colour(below: index))
                    case 1:
                        let index = pick(4)
                        return (["sizes", "s\(index)"], size(below: index))
                    default:
                        return (["offset", "width"], "\(pick(9))")
                    }
                }
            }
            identifiers = (0..<6).map { index in
                (0..<(1 + pick(3))).map { _ in
                    switch pick(5) {
                    case 0: return #"{"type": "BackgroundColor", "color": \#(colour(below: 6))}"#
                    case 1: return #"{"type": "CornerRadius", "radius": \#(size(below: 4))}"#
                    case 2: return #"{"type": "DropShadow", "offset": "@offset", "opacity": 0.5}"#
                    case 3: return #"{"type": "Font", "size": \#(size(below: 4)), "color": \#(colour(below: 6))}"#
                    default:
                        return index > 0
                            ? #"{"type": "Inherit", "traits": ["i\#(pick(index))"]}"#
                            : #"{"type": "Opacity", "opacity": 0.5}"#
                    }
                }
            }
        }

        /// The spec as JSON: with its themes, or with theme `baked`'s overrides written into
        /// the variables and no themes.
        func json(baking baked: Int? = nil) -> String {
            var colors = self.colors
            var sizes = self.sizes
            var offsetWidth = self.offsetWidth
            if let baked {
                for (path, value) in themes[baked] {
                    switch path[0] {
                    case "colors": colors[Int(path[1].dropFirst())!] = value
                    case "sizes": sizes[Int(path[1].dropFirst())!] = value
                    default: offsetWidth = value
                    }
                }
            }
            let variables = #"""
                "colors": {\#(colors.enumerated().map { "\"c\($0)\": \($1)" }.joined(separator: ", "))},
                "sizes": {\#(sizes.enumerated().map { "\"s\($0)\": \($1)" }.joined(separator: ", "))},
                "offset": {"width": \#(offsetWidth), "height": 2}
                """#
            let themes =
                baked != nil
                ? ""
                : self.themes.enumerated().map { index, overrides in
                    // One mapping per group; a leaf overridden twice keeps the last value, as baking does.
                    var groups: [(name: String, leaves: [(String, String)])] = []
                    for (path, value) in overrides {
                        if groups.firstIndex(where: { $0.name == path[0] }) == nil { groups.append((path[0], [])) }
                        let group = groups.firstIndex { $0.name == path[0] }!
                        groups[group].leaves.removeAll { $0.0 == path[1] }
                        groups[group].leaves.append((path[1], value))
                    }
                    let members = groups.map { group in
                        "\"\(group.name)\": {\(group.leaves.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", "))}"
                    }
                    return "\"t\(index)\": {\(members.joined(separator: ", "))}"
                }.joined(separator: ", ")
            let specs = identifiers.enumerated().map { "\"i\($0)\": [\($1.joined(separator: ", "))]" }.joined(
                separator: ", ")
            return "{\"variables\": {\(variables)}, \"themes\": {\(themes)}, \"specs\": {\(specs)}}"
        }
    }

    @Test func eachThemeResolvesAsItsOverridesBakedIntoTheVariables() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000).array(of: 120...120)) { seeds in
            let model = Model(seeds)
            do {
                let spec = try Spec(json: model.json())
                for theme in 0..<2 {
                    let baked = try Spec(json: model.json(baking: theme))
                    for identifier in spec.identifiers {
                        let themed = try #require(spec.resolution(for: "t\(theme)")?.list(for: identifier))
                        let expected = try #require(baked.resolution(for: nil)?.list(for: identifier))
                        #expect(
                            themed.hasSameContent(as: expected), "theme t\(theme), '\(identifier)' in\n\(model.json())")
                    }
                }
            } catch {
                Issue.record("unexpected error \(error) for\n\(model.json())")
            }
        }
    }

    @Test func aThemeOverridingNothingAnEntryReadsKeepsTheBaseTraits() throws {
        let spec = try Spec(
            json: #"""
                {"variables": {"colors": {"a": "#111111", "b": "#222222"}},
                 "themes": {"dark": {"colors": {"b": "#EEEEEE"}}},
                 "specs": {"x": [{"type": "BackgroundColor", "color": "@colors.a"}],
                           "y": [{"type": "Inherit", "traits": ["x"]}, {"type": "TextColor", "color": "~alpha(@colors.b, 0.5)"}]}}
                """#)
        let base = try #require(spec.resolution(for: nil))
        let dark = try #require(spec.resolution(for: "dark"))
        let (darkX, baseX) = try (#require(dark.list(for: "x")), #require(base.list(for: "x")))
        let (darkY, baseY) = try (#require(dark.list(for: "y")), #require(base.list(for: "y")))
        #expect(darkX.hasSameContent(as: baseX))
        #expect(!darkY.hasSameContent(as: baseY))
        #expect(
            (spec.traits(for: "y", theme: "dark").last as? TextColor)?.color
                == Color(red: 0xEE, green: 0xEE, blue: 0xEE, alpha: 0x80))
    }
}
