/// Sets a target's border: `{ type: Border, color: "#D1D1D6", width: 1 }`. A missing field
/// leaves that part of the border as it is.
public struct Border: Trait {
    /// `Border`.
    public static let typeName = "Border"
    /// The border colour, or nil to leave it.
    public var color: Color?
    /// The border width (at least 0), or nil to leave it.
    public var width: Double?

    /// Creates the trait.
    public init(color: Color? = nil, width: Double? = nil) {
        self.color = color
        self.width = width
    }

    /// Decodes the trait, refusing a negative width.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        color = try container.decodeIfPresent(Color.self, forKey: .color)
        width = try container.decodeIfPresent(Double.self, forKey: .width)
        if let width { try Check.atLeastZero(width, .width, in: container) }
    }

    /// Sets the given parts; the reversal restores exactly those.
    public func apply(to target: any HasBorder) throws -> Reversal<any HasBorder> {
        Reversal.setting(target) { changes in
            changes.set(\.borderColor, to: color)
            changes.set(\.borderWidth, to: width)
        }
    }
}

extension Border: CSSTrait {
    /// `border-color`, and with a width `border-width` and `border-style: solid`. Without a
    /// width the style is left alone: CSS's default width is 3px once a style is set, where a
    /// target's is 0.
    public var cssDeclarations: [CSSDeclaration] {
        var declarations: [CSSDeclaration] = []
        if let color { declarations.append(CSSDeclaration("border-color", .color(color))) }
        if let width {
            declarations.append(CSSDeclaration("border-width", .pixels(width)))
            declarations.append(CSSDeclaration("border-style", .keyword("solid")))
        }
        return declarations
    }
}
