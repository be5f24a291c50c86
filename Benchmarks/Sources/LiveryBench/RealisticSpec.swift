/// A large spec that looks like a real one — a palette, type and spacing scales, two themes,
/// base styles, and thousands of identifiers whose traits use references (`@colors.…`), colour
/// functions (`~alpha`, `~mix`) and `Inherit` — written as JSON or as YAML.
enum RealisticSpec {
    /// A value of the document model, rendered to either syntax.
    indirect enum Value {
        case string(String)
        case number(Double)
        case list([Value])
        case map([(String, Value)])
    }

    /// The text of a spec of at least `bytes` bytes in `format`, and how many identifiers it has.
    static func text(atLeast bytes: Int, yaml: Bool) -> (text: String, identifiers: Int) {
        // Grow the component count in proportion until the text is big enough.
        var components = 8
        while true {
            let document = self.document(components: components)
            let text = yaml ? YAML.render(document) : JSON.render(document)
            let size = text.utf8.count
            if size >= bytes { return (text, identifierCount(components: components)) }
            components = max(components + 1, Int(Double(components) * Double(bytes) / Double(size) * 1.01) + 1)
        }
    }

    static let hues = [
        "blue", "green", "red", "orange", "purple", "teal", "pink", "indigo", "gray", "yellow", "cyan", "brown",
    ]
    static let shades = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900]
    private static let kinds = ["card", "row", "banner", "tile", "panel"]
    private static let parts = ["container", "title", "subtitle", "icon", "button"]

    private static func identifierCount(components: Int) -> Int { 2 + components * parts.count }

    static func document(components: Int) -> Value {
        var palette: [(String, Value)] = []
        for (h, hue) in hues.enumerated() {
            for (s, shade) in shades.enumerated() {
                palette.append(("\(hue)-\(shade)", .string(hex(h * 37 + s * 23, h * 11 + s * 19, 255 - s * 25))))
            }
        }
        palette += [
            ("accent", .string("@colors.blue-500")), ("text", .string("#1C1C1E")), ("background", .string("#FFFFFF")),
            ("surface", .string("@colors.gray-50")), ("border", .string("~alpha(@colors.gray-900, 0.12)")),
            ("muted", .string("~mix(@colors.text, @colors.background, 0.6)")),
        ]
        let variables: Value = .map([
            ("colors", .map(palette)),
            (
                "spacing",
                .map([
                    ("xs", .number(2)), ("s", .number(4)), ("m", .number(8)), ("l", .number(12)), ("xl", .number(16)),
                ])
            ),
            (
                "radius",
                .map([("small", .number(4)), ("medium", .number(8)), ("large", .number(12)), ("pill", .number(999))])
            ),
            (
                "fonts",
                .map([
                    ("body", .string("Inter")), ("heading", .string("Inter Display")),
                    ("mono", .string("JetBrains Mono")),
                ])
            ),
            (
                "sizes",
                .map([
                    ("caption", .number(12)), ("body", .number(15)), ("title", .number(20)), ("headline", .number(28)),
                ])
            ),
            ("shadow", .map([("offset", .map([("width", .number(0)), ("height", .number(2))]))])),
        ])
        let themes: Value = .map([
            (
                "dark",
                .map([
                    (
                        "colors",
                        .map([
                            ("accent", .string("@colors.blue-300")), ("text", .string("#F2F2F7")),
                            ("background", .string("#000000")), ("surface", .string("@colors.gray-900")),
                        ])
                    )
                ])
            ),
            ("contrast", .map([("colors", .map([("text", .string("#000000")), ("border", .string("#000000"))]))])),
        ])
        var specs: [(String, Value)] = [
            (
                "text.base",
                .list([
                    trait(
                        "Font", ("name", .string("@fonts.body")), ("size", .string("@sizes.body")),
                        ("color", .string("@colors.text")))
                ])
            ),
            (
                "surface.base",
                .list([
                    trait("BackgroundColor", ("color", .string("@colors.surface"))),
                    trait("CornerRadius", ("radius", .string("@radius.medium"))),
                ])
            ),
        ]
        for component in 0..<components {
            let kind = kinds[component % kinds.count]
            let prefix = "screen\(component / 40).\(kind)\(component % 40)"
            let hue = hues[component % hues.count]
            let shade = shades[(component / hues.count) % shades.count]
            for part in parts {
                specs.append(("\(prefix).\(part)", .list(traits(part: part, hue: hue, shade: shade, n: component))))
            }
        }
        return .map([("variables", variables), ("themes", themes), ("specs", .map(specs))])
    }

    private static func traits(part: String, hue: String, shade: Int, n: Int) -> [Value] {
        switch part {
        case "container":
            return [
                trait("Inherit", ("traits", .list([.string("surface.base")]))),
                trait(
                    "DropShadow", ("color", .string("~alpha(@colors.text, 0.2)")),
                    ("offset", .string("@shadow.offset")),
                    ("opacity", .number(0.5)), ("radius", .number(Double(n % 8 + 2)))),
                trait(
                    "Padding",
                    (
                        "insets",
                        .map([
                            ("top", .string("@spacing.m")), ("left", .string("@spacing.l")),
                            ("bottom", .string("@spacing.m")), ("right", .string("@spacing.l")),
                        ])
                    )),
                trait("Border", ("color", .string("@colors.border")), ("width", .number(1))),
            ]
        case "title":
            return [
                trait("Inherit", ("traits", .list([.string("text.base")]))),
                trait("Font", ("size", .string("@sizes.title")), ("weight", .string("semibold"))),
                trait("Opacity", ("opacity", .number(0.875))),
            ]
        case "subtitle":
            return [
                trait("Inherit", ("traits", .list([.string("text.base")]))),
                trait(
                    "Font", ("size", .string("@sizes.caption")),
                    ("color", .string("~mix(@colors.text, @colors.background, 0.4)"))),
            ]
        case "icon":
            return [
                trait("TextColor", ("color", .string("@colors.\(hue)-\(shade)"))),
                trait("Padding", ("insets", .number(Double(n % 4 * 2)))),
            ]
        default:
            return [
                trait("BackgroundColor", ("color", .string("@colors.\(hue)-\(shade)"))),
                trait("CornerRadius", ("radius", .string("@radius.pill"))),
                trait("Padding", ("insets", .list([.number(8), .number(12), .number(8), .number(12)]))),
                trait(
                    "Font", ("name", .string("@fonts.body")), ("size", .number(15)), ("weight", .string("bold")),
                    ("color", .string("#FFFFFF"))),
                trait("Constraint", ("constant", .number(Double(44 + n % 5 * 4)))),
            ]
        }
    }

    private static func trait(_ type: String, _ fields: (String, Value)...) -> Value {
        .map([("type", .string(type))] + fields)
    }

    private static func hex(_ r: Int, _ g: Int, _ b: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for channel in [r, g, b] {
            let byte = channel & 0xFF
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
        }
        return text
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Pretty-printed JSON, two spaces, as an editor would save it.
    enum JSON {
        static func render(_ value: Value) -> String {
            var out = ""
            write(value, indent: 0, into: &out)
            out += "\n"
            return out
        }

        private static func write(_ value: Value, indent: Int, into out: inout String) {
            let pad = String(repeating: " ", count: indent + 2)
            switch value {
            case .string(let string): out += quoted(string)
            case .number(let number): out += RealisticSpec.number(number)
            case .list(let items) where items.allSatisfy(\.isScalar):
                out += "[" + items.map { inline($0) }.joined(separator: ", ") + "]"
            case .map(let members) where members.allSatisfy({ $0.1.isScalar }) && members.count <= 6:
                out += "{" + members.map { "\(quoted($0.0)): \(inline($0.1))" }.joined(separator: ", ") + "}"
            case .list(let items):
                out += "[\n"
                for (index, item) in items.enumerated() {
                    out += pad
                    write(item, indent: indent + 2, into: &out)
                    out += index == items.count - 1 ? "\n" : ",\n"
                }
                out += String(repeating: " ", count: indent) + "]"
            case .map(let members):
                out += "{\n"
                for (index, member) in members.enumerated() {
                    out += pad + quoted(member.0) + ": "
                    write(member.1, indent: indent + 2, into: &out)
                    out += index == members.count - 1 ? "\n" : ",\n"
                }
                out += String(repeating: " ", count: indent) + "}"
            }
        }

        static func inline(_ value: Value) -> String {
            switch value {
            case .string(let string): quoted(string)
            case .number(let number): RealisticSpec.number(number)
            case .list(let items): "[" + items.map(inline).joined(separator: ", ") + "]"
            case .map(let members):
                "{" + members.map { "\(quoted($0.0)): \(inline($0.1))" }.joined(separator: ", ") + "}"
            }
        }

        static func quoted(_ string: String) -> String { "\"" + string + "\"" }
    }

    /// Block YAML for the structure, one flow mapping per trait, as the example specs are written.
    enum YAML {
        static func render(_ value: Value) -> String {
            var out = "# Generated by LiveryBench: a large, realistic spec.\n"
            guard case .map(let members) = value else { return out }
            for (key, child) in members {
                out += "\(key):\n"
                write(child, indent: 2, into: &out)
            }
            return out
        }

        private static func write(_ value: Value, indent: Int, into out: inout String) {
            let pad = String(repeating: " ", count: indent)
            guard case .map(let members) = value else {
                out += pad + flow(value) + "\n"
                return
            }
            for (key, child) in members {
                if child.isFlat {
                    out += "\(pad)\(key): \(flow(child))\n"
                } else if case .list(let items) = child {
                    out += "\(pad)\(key):\n"
                    for item in items { out += "\(pad)  - \(flow(item))\n" }
                } else {
                    out += "\(pad)\(key):\n"
                    write(child, indent: indent + 2, into: &out)
                }
            }
        }

        static func flow(_ value: Value) -> String {
            switch value {
            case .string(let string): scalar(string)
            case .number(let number): RealisticSpec.number(number)
            case .list(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
            case .map(let members): "{ " + members.map { "\($0.0): \(flow($0.1))" }.joined(separator: ", ") + " }"
            }
        }

        /// Plain when that cannot change its meaning, double-quoted otherwise.
        private static func scalar(_ string: String) -> String {
            let plain =
                string.first?.isLetter == true
                && string.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == " " }
                && !["true", "false", "null", "yes", "no", "on", "off"].contains(string.lowercased())
            return plain ? string : "\"" + string + "\""
        }
    }
}

extension RealisticSpec.Value {
    var isScalar: Bool {
        switch self {
        case .string, .number: true
        case .list, .map: false
        }
    }

    /// Small enough to write on one line: scalars only, or a trait list's entries.
    var isFlat: Bool {
        switch self {
        case .string, .number: true
        case .list(let items): items.allSatisfy(\.isScalar)
        case .map(let members): members.allSatisfy { $0.1.isScalar } && members.count <= 6
        }
    }
}
