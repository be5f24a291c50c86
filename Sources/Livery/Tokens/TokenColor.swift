import Foundation

/// Converts a colour value of the Color Module 2025.10 (`{colorSpace, components, alpha, hex}`)
/// to a Livery ``Color``.
///
/// `srgb` converts exactly (each component × 255, rounded to the 8 bits a channel holds);
/// `srgb-linear`, `hsl` and `hwb` are sRGB too and convert by CSS Color 4's formulas. `lab`,
/// `lch`, `oklab`, `oklch` and `display-p3` convert by CSS Color 4's conversions (through XYZ,
/// Bradford-adapted from D50 for `lab` and `lch`) when the colour lies inside sRGB's gamut; one
/// outside it would need gamut mapping, which Livery does not do, so it is refused with a located
/// error rather than approximated. The module's other spaces (`a98-rgb`, `prophoto-rgb`,
/// `rec2020`, `xyz-d65`, `xyz-d50`) are refused the same way. A component outside its range, a
/// missing component or a malformed `hex` is `invalidValue`; `none` counts as 0, as CSS
/// converts it.
enum TokenColor {
    /// The spaces Livery converts, and the ranges of their components.
    private static let spaces: [String: [(name: String, range: ClosedRange<Double>, open: Bool)]] = [
        "srgb": [("red", 0...1, false), ("green", 0...1, false), ("blue", 0...1, false)],
        "srgb-linear": [("red", 0...1, false), ("green", 0...1, false), ("blue", 0...1, false)],
        "hsl": [("hue", 0...360, true), ("saturation", 0...100, false), ("lightness", 0...100, false)],
        "hwb": [("hue", 0...360, true), ("whiteness", 0...100, false), ("blackness", 0...100, false)],
        "lab": [("lightness", 0...100, false), ("a", unbounded, false), ("b", unbounded, false)],
        "lch": [("lightness", 0...100, false), ("chroma", 0...Double.infinity, false), ("hue", 0...360, true)],
        "oklab": [("lightness", 0...1, false), ("a", unbounded, false), ("b", unbounded, false)],
        "oklch": [("lightness", 0...1, false), ("chroma", 0...Double.infinity, false), ("hue", 0...360, true)],
        "display-p3": [("red", 0...1, false), ("green", 0...1, false), ("blue", 0...1, false)],
    ]
    private static let unbounded = -Double.infinity...Double.infinity
    /// The module's other spaces: known, but not converted.
    private static let unconverted: Set<String> = ["a98-rgb", "prophoto-rgb", "rec2020", "xyz-d65", "xyz-d50"]

    static func color(_ node: SpecNode) throws(SpecError) -> Color {
        guard let members = node.members else {
            throw SpecError(
                .typeMismatch, at: node.location,
                "expected a colour object {colorSpace, components, alpha, hex}, found \(node.foundDescription)")
        }
        var spaceNode: SpecNode?, componentsNode: SpecNode?, alphaNode: SpecNode?, hexNode: SpecNode?
        // By index, each field read in place: a loop over the members copies each whole.
        for index in members.indices {
            switch members[index].key {
            case "colorSpace": spaceNode = members[index].value
            case "components": componentsNode = members[index].value
            case "alpha": alphaNode = members[index].value
            case "hex": hexNode = members[index].value
            default:
                throw SpecError(
                    .unknownKey, at: members[index].keyLocation,
                    "unknown colour property '\(members[index].key)'; expected colorSpace, components, alpha or hex")
            }
        }
        guard let spaceNode else {
            throw SpecError(.missingKey, at: node.location, "colour has no 'colorSpace'")
        }
        guard let space = spaceNode.string else {
            throw SpecError(
                .typeMismatch, at: spaceNode.location,
                "expected a colour space name, found \(spaceNode.foundDescription)")
        }
        guard let ranges = spaces[space] else {
            if unconverted.contains(space) {
                throw SpecError(
                    .invalidValue, at: spaceNode.location,
                    "colour space '\(space)' is not converted to sRGB by Livery; write the colour in srgb, srgb-linear, hsl, hwb, lab, lch, oklab, oklch or display-p3"
                )
            }
            throw SpecError(
                .invalidValue, at: spaceNode.location,
                "unknown colour space '\(space)'; expected one of the Color Module's spaces, such as 'srgb'")
        }
        let components = try readComponents(componentsNode, ranges: ranges, space: space, at: node.location)
        var alpha = 1.0
        if let alphaNode {
            guard let value = TokenValue.number(alphaNode), (0...1).contains(value) else {
                throw SpecError(
                    .invalidValue, at: alphaNode.location, "expected an alpha 0…1, found \(alphaNode.foundDescription)")
            }
            alpha = value
        }
        if let hex = hexNode {
            guard let text = hex.string, text.count == 7, text.first == "#", Color(hex: text) != nil else {
                throw SpecError(
                    .invalidValue, at: hex.location,
                    "expected a 6-digit CSS hex colour '#rrggbb' as the fallback, found \(hex.foundDescription)")
            }
        }
        let rgb = sRGB(space: space, components)
        guard let rgb = ColorConversion.inGamut(rgb) else {
            let shown = [rgb.0, rgb.1, rgb.2].map { ValueText.format(($0 * 1000).rounded() / 1000) }
            throw SpecError(
                .invalidValue, at: spaceNode.location,
                "this '\(space)' colour lies outside sRGB's gamut (red, green, blue \(shown.joined(separator: ", "))); Livery does not gamut-map: choose a colour inside sRGB, or write its sRGB fallback in srgb"
            )
        }
        return Color(red: byte(rgb.0), green: byte(rgb.1), blue: byte(rgb.2), alpha: byte(alpha))
    }

    /// The colour as the module writes it, in `srgb`, with its hex fallback.
    static func node(_ color: Color, at location: SourceLocation) -> SpecNode {
        // 0 and 1 as integers, the rest as the exact fraction of 255 that reads back to the byte.
        func unit(_ byte: UInt8) -> SpecNode {
            switch byte {
            case 0: SpecNode(.int(0), at: location)
            case 255: SpecNode(.int(1), at: location)
            default: SpecNode(.double(Double(byte) / 255), at: location)
            }
        }
        var fields: [(String, SpecNode)] = [
            ("colorSpace", .text("srgb", at: location)),
            ("components", SpecNode(.sequence([unit(color.red), unit(color.green), unit(color.blue)]), at: location)),
        ]
        if color.alpha != 255 { fields.append(("alpha", unit(color.alpha))) }
        let opaque = Color(red: color.red, green: color.green, blue: color.blue)
        fields.append(("hex", .text(opaque.description.lowercased(), at: location)))
        return .object(fields, at: location)
    }

    private static func readComponents(
        _ node: SpecNode?, ranges: [(name: String, range: ClosedRange<Double>, open: Bool)], space: String,
        at location: SourceLocation
    ) throws(SpecError) -> SIMD3<Double> {
        guard let node else { throw SpecError(.missingKey, at: location, "colour has no 'components'") }
        guard case .sequence(let items) = node.value, items.count == ranges.count else {
            throw SpecError(
                .invalidValue, at: node.location,
                "expected \(ranges.count) components [\(ranges.map(\.name).joined(separator: ", "))] for '\(space)', found \(node.foundDescription)"
            )
        }
        // Every space Livery converts has three components: held inline, not in an array.
        var values = SIMD3<Double>()
        for (index, (item, range)) in zip(items, ranges).enumerated() {
            if item.string == "none" {
                // 0, as CSS converts it.
                continue
            }
            guard let value = TokenValue.number(item) else {
                throw SpecError(
                    .typeMismatch, at: item.location,
                    "expected the \(range.name) component, a number or 'none', found \(item.foundDescription)")
            }
            guard range.range.contains(value), !(range.open && value == range.range.upperBound) else {
                let lower = ValueText.format(range.range.lowerBound)
                let expected =
                    range.range.upperBound == .infinity
                    ? "at least \(lower)"
                    : "\(lower)…\(ValueText.format(range.range.upperBound))\(range.open ? " (excluded)" : "")"
                throw SpecError(
                    .invalidValue, at: item.location,
                    "\(range.name) component \(ValueText.format(value)) is out of range for '\(space)': expected \(expected)"
                )
            }
            values[index] = value
        }
        return values
    }

    /// Gamma-encoded sRGB 0…1 from a space of the sRGB family (CSS Color 4, sections 7, 8 and 10).
    private static func sRGB(space: String, _ c: SIMD3<Double>) -> (Double, Double, Double) {
        switch space {
        case "srgb":
            return (c[0], c[1], c[2])
        case "srgb-linear":
            return ColorConversion.encoded(linear: (c[0], c[1], c[2]))
        case "hsl":
            return hsl(hue: c[0], saturation: c[1] / 100, lightness: c[2] / 100)
        case "lab":
            return ColorConversion.sRGB(lab: (c[0], c[1], c[2]))
        case "lch":
            return ColorConversion.sRGB(lab: polar(c))
        case "oklab":
            return ColorConversion.sRGB(oklab: (c[0], c[1], c[2]))
        case "oklch":
            return ColorConversion.sRGB(oklab: polar(c))
        case "display-p3":
            return ColorConversion.sRGB(displayP3: (c[0], c[1], c[2]))
        case "hwb":
            let (white, black) = (c[1] / 100, c[2] / 100)
            if white + black >= 1 {
                let gray = white / (white + black)
                return (gray, gray, gray)
            }
            let pure = hsl(hue: c[0], saturation: 1, lightness: 0.5)
            let scale = 1 - white - black
            return (pure.0 * scale + white, pure.1 * scale + white, pure.2 * scale + white)
        default:
            return (c[0], c[1], c[2])
        }
    }

    /// `[lightness, chroma, hue°]` as `(lightness, a, b)`.
    private static func polar(_ c: SIMD3<Double>) -> (Double, Double, Double) {
        let hue = c[2] * .pi / 180
        return (c[0], c[1] * cos(hue), c[1] * sin(hue))
    }

    private static func hsl(hue: Double, saturation: Double, lightness: Double) -> (Double, Double, Double) {
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (channel(0), channel(8), channel(4))
    }

    private static func byte(_ unit: Double) -> UInt8 {
        UInt8(max(0, min(255, (unit * 255).rounded())))
    }
}
