/// Sets a target's font and text colour: `{ type: Font, name: Inter, size: 18, weight: semibold, color: "#1C1C1E" }`.
/// A missing field leaves that part as it is, so `{ type: Font, size: 20 }` only resizes.
///
/// Its spec name is `Font`, as in the original Traits library; the Swift name differs only
/// because ``Font`` is the value type.
public struct FontTrait: Trait {
    /// `Font`.
    public static let typeName = "Font"
    /// The font family name, or nil to leave it.
    public var name: String?
    /// The point size (greater than 0), or nil to leave it.
    public var size: Double?
    /// The weight, or nil to leave it.
    public var weight: FontWeight?
    /// The text colour, or nil to leave it.
    public var color: Color?

    /// Creates the trait.
    public init(name: String? = nil, size: Double? = nil, weight: FontWeight? = nil, color: Color? = nil) {
        self.name = name
        self.size = size
        self.weight = weight
        self.color = color
    }

    /// Decodes the trait, refusing a size that is not positive.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        size = try container.decodeIfPresent(Double.self, forKey: .size)
        weight = try container.decodeIfPresent(FontWeight.self, forKey: .weight)
        color = try container.decodeIfPresent(Color.self, forKey: .color)
        if let size, !(size > 0) {
            throw DecodingError.dataCorruptedError(
                forKey: .size, in: container, debugDescription: "font size \(size) must be greater than 0")
        }
    }

    /// Sets the given parts; the reversal restores exactly those.
    public func apply(to target: any HasFont) throws -> Reversal<any HasFont> {
        // The font is one value: its parts change together and are restored together.
        var font: Font?
        if name != nil || size != nil || weight != nil {
            var changed = target.font
            if let name { changed.name = name }
            if let size { changed.size = size }
            if let weight { changed.weight = weight }
            font = changed
        }
        return Reversal.setting(target) { changes in
            changes.set(\.font, to: font)
            changes.set(\.textColor, to: color)
        }
    }
}

extension FontTrait: CSSTrait {
    /// `font-family` (Livery's `System` is CSS's `system-ui`, which also follows any other name,
    /// as a platform falls back to its system font), `font-size` in pixels, `font-weight` as its
    /// number, and `color`: only the parts the trait sets.
    public var cssDeclarations: [CSSDeclaration] {
        var declarations: [CSSDeclaration] = []
        if let name {
            let system = CSSValue.keyword("system-ui")
            let family: CSSValue = name == Font.systemName ? system : .alternatives([.string(name), system])
            declarations.append(CSSDeclaration("font-family", family))
        }
        if let size { declarations.append(CSSDeclaration("font-size", .pixels(size))) }
        if let weight { declarations.append(CSSDeclaration("font-weight", .number(Double(weight.numericValue)))) }
        if let color { declarations.append(CSSDeclaration("color", .color(color))) }
        return declarations
    }
}
