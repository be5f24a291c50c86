/// Converts a token's `$value` to the value a Livery variable holds, by the token's type.
///
/// | `$type` | variable |
/// |---|---|
/// | `color` | `"#RRGGBB"` or `"#RRGGBBAA"` (see ``TokenColor``) |
/// | `dimension` | points: `px` as is, `rem` × ``remInPoints`` |
/// | `fontFamily` | the first (most preferred) name |
/// | `fontWeight` | the number, 1…1000 (a weight name becomes its number) |
/// | `number` | the number |
/// | `duration` | seconds |
/// | `cubicBezier` | the four numbers |
/// | `strokeStyle` | the style name, or `{dashArray: [points], lineCap}` |
/// | `border` | a `Border` trait: `{type: Border, color, width}` |
/// | `shadow` | a `DropShadow` trait: `{type: DropShadow, color, offset: {width, height}, radius}` (a list for several) |
/// | `typography` | a `Font` trait: `{type: Font, name, size, weight}` |
/// | `transition` | `{duration, delay, timingFunction}` converted as above |
/// | `gradient` | the stops, `[{color, position}]` |
///
/// A reference `"{color.base}"` becomes `"@color.base"`, wherever it is, so the spec's own
/// reference resolution follows chains and reports cycles. Parts a Livery value cannot hold
/// (a border's style, a font's letter spacing and line height) stay in the token and in exports;
/// a shadow's non-zero `spread` or `inset: true` stay in the variable, so a `DropShadow` that
/// uses it refuses them where the token is rather than drawing another shadow.
enum TokenValue {
    /// Points in one `rem`: the default font size of browsers and of the format's own examples.
    static let remInPoints = 16.0

    /// The variable a token becomes: its value converted by its type, an alias's reference, or
    /// what an export by Livery wrote in its extension (``TokensExport``).
    static func variable(of token: DesignToken) throws(SpecError) -> SpecNode {
        if let expression = expression(of: token) { return SpecNode(.string(expression), at: token.location) }
        if let type = token.type { return try convert(token.value, as: type) }
        if let alias = try reference(token.value) { return alias }
        switch (token.extensions?[TokensExport.livery]?["type"]?.string, token.value.value) {
        case ("string", .string(let text)): return SpecNode(.string(escaped(text)), at: token.location)
        case ("boolean", .bool), ("null", .null), ("list", .sequence), ("mapping", .mapping): return token.value
        default:
            throw SpecError(
                .typeMismatch, at: token.location,
                "token '\(token.name)' has no $type, and its value \(token.value.foundDescription) is not the kind its '\(TokensExport.livery)' extension names"
            )
        }
    }

    /// The colour function `~…` an export by Livery wrote in the token's extension, which its
    /// variable is instead of its value.
    static func expression(of token: DesignToken) -> String? {
        guard let text = token.extensions?[TokensExport.livery]?["expression"]?.string, text.hasPrefix("~") else {
            return nil
        }
        return text
    }

    static func convert(_ node: SpecNode, as type: TokenType) throws(SpecError) -> SpecNode {
        if let alias = try reference(node) { return alias }
        let at = node.location
        switch type {
        case .color:
            return SpecNode(.string(try TokenColor.color(node).description), at: at)
        case .dimension:
            return number(try dimension(node), at: at)
        case .fontFamily:
            return SpecNode(.string(escaped(try fontFamily(node))), at: at)
        case .fontWeight:
            return SpecNode(.int(try fontWeight(node)), at: at)
        case .number:
            guard let value = number(node) else { throw mismatch(node, "a number") }
            return number(value, at: at)
        case .duration:
            return number(try duration(node), at: at)
        case .cubicBezier:
            return try cubicBezier(node)
        case .strokeStyle:
            return try strokeStyle(node)
        case .border:
            let parts = try composite(node, required: ["color", "width", "style"], optional: [], type: "border")
            _ = try part(parts["style"]!, as: .strokeStyle)
            return trait(
                Border.self,
                [
                    (\.color, try part(parts["color"]!, as: .color)),
                    (\.width, try part(parts["width"]!, as: .dimension)),
                ],
                at: at)
        case .shadow:
            if case .sequence(let items) = node.value {
                var shadows: [SpecNode] = []
                for item in items {
                    if let alias = try reference(item) {
                        shadows.append(alias)
                    } else {
                        shadows.append(try shadow(item))
                    }
                }
                return SpecNode(.sequence(shadows), at: at)
            }
            return try shadow(node)
        case .typography:
            let parts = try composite(
                node, required: ["fontFamily", "fontSize", "fontWeight", "letterSpacing", "lineHeight"], optional: [],
                type: "typography")
            _ = try part(parts["letterSpacing"]!, as: .dimension)
            _ = try part(parts["lineHeight"]!, as: .number)
            return trait(
                FontTrait.self,
                [
                    (\.name, try part(parts["fontFamily"]!, as: .fontFamily)),
                    (\.size, try part(parts["fontSize"]!, as: .dimension)),
                    (\.weight, try part(parts["fontWeight"]!, as: .fontWeight)),
                ], at: at)
        case .transition:
            let parts = try composite(
                node, required: ["duration", "delay", "timingFunction"], optional: [], type: "transition")
            return mapping(
                [
                    ("duration", try part(parts["duration"]!, as: .duration)),
                    ("delay", try part(parts["delay"]!, as: .duration)),
                    ("timingFunction", try part(parts["timingFunction"]!, as: .cubicBezier)),
                ], at: at)
        case .gradient:
            guard case .sequence(let stops) = node.value else { throw mismatch(node, "a list of gradient stops") }
            var converted: [SpecNode] = []
            for stop in stops {
                if let alias = try reference(stop) {
                    converted.append(alias)
                    continue
                }
                let parts = try composite(stop, required: ["color", "position"], optional: [], type: "gradient stop")
                let position = try part(parts["position"]!, as: .number)
                if let value = number(position), !(0...1).contains(value) {
                    throw SpecError(
                        .invalidValue, at: position.location,
                        "gradient stop position \(ValueText.format(value)) is out of range: expected 0…1")
                }
                converted.append(
                    mapping(
                        [("color", try part(parts["color"]!, as: .color)), ("position", position)], at: stop.location))
            }
            return SpecNode(.sequence(converted), at: at)
        }
    }

    /// `"@path"` for a reference `"{path}"`; nil for any other value. A string with braces that
    /// is not a whole reference is an error only where the format asks for a reference.
    static func reference(_ node: SpecNode) throws(SpecError) -> SpecNode? {
        guard let path = referencePath(node) else { return nil }
        guard partsAreNames(path) else {
            throw SpecError(
                .invalidValue, at: node.location, "'{\(path)}' is not a token reference: expected {group.token}")
        }
        return SpecNode(.string("@" + path), at: node.location)
    }

    /// Whether each part of a reference's path can name a group or token: not empty, and no
    /// `$` property other than `$root`. On the UTF-8 bytes: `.` and `$` are ASCII.
    private static func partsAreNames(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ".") {
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard !part.isEmpty, part[0] != UInt8(ascii: "$") || part.elementsEqual("$root".utf8) else {
                    return false
                }
                start = end + 1
            }
            return true
        }
    }

    /// The path inside `"{path}"`, if `node` is such a string.
    static func referencePath(_ node: SpecNode) -> String? {
        // On the UTF-8 bytes: every token's value is asked this, and braces are ASCII.
        guard case .string(var text) = node.value, text.utf8.first == UInt8(ascii: "{") else { return nil }
        return text.withUTF8 { bytes in
            guard bytes.count > 2, bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
            let inside = 1..<(bytes.count - 1)
            guard !bytes[inside].contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else {
                return nil
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[inside]), as: UTF8.self)
        }
    }

    /// A number node's value.
    static func number(_ node: SpecNode) -> Double? {
        switch node.value {
        case .int(let int): Double(int)
        case .double(let double): double
        default: nil
        }
    }

    /// The weight names of the format and their numbers.
    static let fontWeights: [String: Int] = [
        "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300, "normal": 400,
        "regular": 400, "book": 400, "medium": 500, "semi-bold": 600, "demi-bold": 600, "bold": 700,
        "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900, "extra-black": 950, "ultra-black": 950,
    ]

    static let strokeStyles: Set<String> = [
        "solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset",
    ]

    private static func part(_ node: SpecNode, as type: TokenType) throws(SpecError) -> SpecNode {
        try convert(node, as: type)
    }

    private static func shadow(_ node: SpecNode) throws(SpecError) -> SpecNode {
        let parts = try composite(
            node, required: ["color", "offsetX", "offsetY", "blur", "spread"], optional: ["inset"], type: "shadow")
        var fields: [(String, SpecNode)] = [
            (DropShadow.field(\.color), try part(parts["color"]!, as: .color)),
            (
                DropShadow.field(\.offset),
                mapping(
                    [
                        ("width", try part(parts["offsetX"]!, as: .dimension)),
                        ("height", try part(parts["offsetY"]!, as: .dimension)),
                    ], at: parts["offsetX"]!.location)
            ),
            (DropShadow.field(\.radius), try part(parts["blur"]!, as: .dimension)),
        ]
        // `spread` and `inset` are the token's own names: DropShadow declares neither, so it
        // refuses them where the token is rather than drawing another shadow.
        let spread = try part(parts["spread"]!, as: .dimension)
        if number(spread) != 0 { fields.append(("spread", spread)) }
        if let inset = parts["inset"] {
            guard case .bool(let isInset) = inset.value else { throw mismatch(inset, "true or false") }
            if isInset { fields.append(("inset", inset)) }
        }
        return trait(DropShadow.typeName, fields, at: node.location)
    }

    private static func dimension(_ node: SpecNode) throws(SpecError) -> Double {
        let parts = try composite(node, required: ["value", "unit"], optional: [], type: "dimension")
        let value = try requireNumber(parts["value"]!)
        let unit = parts["unit"]!
        switch unit.string {
        case "px": return value
        case "rem": return value * remInPoints
        default:
            throw SpecError(
                .invalidValue, at: unit.location, "expected the unit 'px' or 'rem', found \(unit.foundDescription)")
        }
    }

    private static func duration(_ node: SpecNode) throws(SpecError) -> Double {
        let parts = try composite(node, required: ["value", "unit"], optional: [], type: "duration")
        let value = try requireNumber(parts["value"]!)
        let unit = parts["unit"]!
        switch unit.string {
        case "ms": return value / 1000
        case "s": return value
        default:
            throw SpecError(
                .invalidValue, at: unit.location, "expected the unit 'ms' or 's', found \(unit.foundDescription)")
        }
    }

    private static func fontFamily(_ node: SpecNode) throws(SpecError) -> String {
        if let name = node.string, !name.isEmpty { return name }
        guard case .sequence(let names) = node.value, let first = names.first else {
            throw mismatch(node, "a font name or a list of font names")
        }
        for name in names where name.string?.isEmpty != false { throw mismatch(name, "a font name") }
        return first.string!
    }

    private static func fontWeight(_ node: SpecNode) throws(SpecError) -> Int {
        if let name = node.string {
            guard let weight = fontWeights[name] else {
                throw SpecError(
                    .invalidValue, at: node.location,
                    "unknown font weight '\(name)': expected a number 1…1000 or one of \(fontWeights.keys.sorted().joined(separator: ", "))"
                )
            }
            return weight
        }
        guard let value = number(node), value == value.rounded(), (1...1000).contains(value) else {
            throw SpecError(
                .invalidValue, at: node.location,
                "expected a font weight 1…1000 or a weight name, found \(node.foundDescription)")
        }
        return Int(value)
    }

    private static func cubicBezier(_ node: SpecNode) throws(SpecError) -> SpecNode {
        guard case .sequence(let items) = node.value, items.count == 4 else {
            throw mismatch(node, "four numbers [x1, y1, x2, y2]")
        }
        for (index, item) in items.enumerated() {
            let value = try requireNumber(item)
            if index % 2 == 0, !(0...1).contains(value) {
                throw SpecError(
                    .invalidValue, at: item.location,
                    "x coordinate \(ValueText.format(value)) is out of range: expected 0…1")
            }
        }
        return node
    }

    private static func strokeStyle(_ node: SpecNode) throws(SpecError) -> SpecNode {
        if let name = node.string {
            guard strokeStyles.contains(name) else {
                throw SpecError(
                    .invalidValue, at: node.location,
                    "unknown stroke style '\(name)': expected one of \(strokeStyles.sorted().joined(separator: ", "))")
            }
            return node
        }
        let parts = try composite(node, required: ["dashArray", "lineCap"], optional: [], type: "strokeStyle")
        guard case .sequence(let dashes) = parts["dashArray"]!.value, !dashes.isEmpty else {
            throw mismatch(parts["dashArray"]!, "a list of dimensions")
        }
        var converted: [SpecNode] = []
        for dash in dashes { converted.append(try part(dash, as: .dimension)) }
        let cap = parts["lineCap"]!
        guard let capName = cap.string, ["round", "butt", "square"].contains(capName) else {
            throw SpecError(
                .invalidValue, at: cap.location, "expected 'round', 'butt' or 'square', found \(cap.foundDescription)")
        }
        return mapping(
            [("dashArray", SpecNode(.sequence(converted), at: parts["dashArray"]!.location)), ("lineCap", cap)],
            at: node.location)
    }

    /// The members of a composite value, by name. A handful at most, each name once (a
    /// reader refuses a duplicate key), so found by comparing names rather than hashing them.
    private struct Parts {
        let members: [SpecNode.Member]

        subscript(key: String) -> SpecNode? {
            members.first { $0.key == key }?.value
        }
    }

    /// The members of a composite value, checked: every required one present, no other.
    private static func composite(
        _ node: SpecNode, required: [String], optional: [String], type: String
    ) throws(SpecError) -> Parts {
        guard let members = node.members else {
            throw mismatch(node, "a \(type) object {\(required.joined(separator: ", "))}")
        }
        for member in members where !required.contains(member.key) && !optional.contains(member.key) {
            throw SpecError(
                .unknownKey, at: member.keyLocation,
                "unknown \(type) property '\(member.key)'; expected \((required + optional).joined(separator: ", "))"
            )
        }
        let parts = Parts(members: members)
        for key in required where parts[key] == nil {
            throw SpecError(.missingKey, at: node.location, "\(type) has no '\(key)'")
        }
        return parts
    }

    private static func requireNumber(_ node: SpecNode) throws(SpecError) -> Double {
        guard let value = number(node) else { throw mismatch(node, "a number") }
        return value
    }

    private static func mismatch(_ node: SpecNode, _ expected: String) -> SpecError {
        SpecError(.typeMismatch, at: node.location, "expected \(expected), found \(node.foundDescription)")
    }

    private static func number(_ value: Double, at location: SourceLocation) -> SpecNode {
        value == value.rounded() && abs(value) < 1e15
            ? SpecNode(.int(Int(value)), at: location) : SpecNode(.double(value), at: location)
    }

    /// A literal string as a variable holds it: a leading `@` or `~` doubled, so it is not read
    /// as a reference or a function.
    static func escaped(_ text: String) -> String {
        // On the first byte: both marks are ASCII.
        let first = text.utf8.first
        return first == UInt8(ascii: "@") || first == UInt8(ascii: "~") ? String(text.first!) + text : text
    }

    private static func mapping(_ fields: [(String, SpecNode)], at location: SourceLocation) -> SpecNode {
        SpecNode(
            .mapping(fields.map { SpecNode.Member(key: $0.0, keyLocation: $0.1.location, value: $0.1) }), at: location)
    }

    private static func trait(_ type: String, _ fields: [(String, SpecNode)], at location: SourceLocation) -> SpecNode {
        mapping([("type", SpecNode(.string(type), at: location))] + fields, at: location)
    }

    /// A `Trait` mapping whose fields are named by the trait's declaration.
    private static func trait<Declared: PropertyTrait>(
        _ type: Declared.Type, _ fields: [(PartialKeyPath<Declared>, SpecNode)], at location: SourceLocation
    ) -> SpecNode {
        trait(type.typeName, fields.map { (type.field($0.0), $0.1) }, at: location)
    }
}
