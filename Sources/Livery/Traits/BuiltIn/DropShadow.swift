/// Sets a target's shadow:
/// `{ type: DropShadow, color: "#000000", offset: { width: 0, height: 2 }, opacity: 0.3, radius: 4 }`.
/// A missing field leaves that part of the shadow as it is.
public struct DropShadow: Trait {
    /// `DropShadow`.
    public static let typeName = "DropShadow"
    /// The shadow colour, or nil to leave it.
    public var color: Color?
    /// The offset, or nil to leave it.
    public var offset: Size?
    /// The opacity (0…1), or nil to leave it.
    public var opacity: Double?
    /// The blur radius (at least 0), or nil to leave it.
    public var radius: Double?

    /// Creates the trait.
    public init(color: Color? = nil, offset: Size? = nil, opacity: Double? = nil, radius: Double? = nil) {
        self.color = color
        self.offset = offset
        self.opacity = opacity
        self.radius = radius
    }

    /// Decodes the trait, refusing an opacity outside 0…1 and a negative radius.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        color = try container.decodeIfPresent(Color.self, forKey: .color)
        offset = try container.decodeIfPresent(Size.self, forKey: .offset)
        opacity = try container.decodeIfPresent(Double.self, forKey: .opacity)
        radius = try container.decodeIfPresent(Double.self, forKey: .radius)
        if let opacity { try Check.unitInterval(opacity, .opacity, in: container) }
        if let radius { try Check.atLeastZero(radius, .radius, in: container) }
    }

    /// Sets the given parts; the reversal restores exactly those.
    public func apply(to target: any HasDropShadow) throws -> Reversal<any HasDropShadow> {
        Reversal.setting(target) { changes in
            changes.set(\.shadowColor, to: color)
            changes.set(\.shadowOffset, to: offset)
            changes.set(\.shadowOpacity, to: opacity)
            changes.set(\.shadowRadius, to: radius)
        }
    }
}

extension DropShadow: CSSTrait {
    /// `box-shadow: x y blur colour`, the colour's alpha multiplied by the opacity.
    ///
    /// `box-shadow` is one value in CSS, so a part this trait leaves out is a target's default
    /// (black, no offset, opacity 0, radius 0), not what an earlier `DropShadow` set.
    public var cssDeclarations: [CSSDeclaration] {
        var shown = color ?? .black
        shown.alpha = UInt8((Double(shown.alpha) * (opacity ?? 0)).rounded())
        let offset = offset ?? .zero
        return [
            CSSDeclaration(
                "box-shadow",
                .list([.pixels(offset.width), .pixels(offset.height), .pixels(radius ?? 0), .color(shown)]))
        ]
    }
}
