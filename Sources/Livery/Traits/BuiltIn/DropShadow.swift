/// Sets a target's shadow:
/// `{ type: DropShadow, color: "#000000", offset: { width: 0, height: 2 }, opacity: 0.3, radius: 4 }`.
/// A missing field leaves that part of the shadow as it is.
public struct DropShadow: PropertyTrait {
    /// Applies to a ``HasDropShadow``.
    public typealias Target = any HasDropShadow
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

    /// Its four fields set ``HasDropShadow``'s four properties; `opacity` is 0…1, `radius` at least 0.
    /// In CSS, the four make one `box-shadow` (see `boxShadow`), declared with `color`.
    public static let properties = [
        TraitProperty("color", \Self.color, cssOfTrait: { [$0.boxShadow] }) {
            func binding(_ target: (some HasDropShadow).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.shadowColor, &$1)
                } assign: {
                    $0.shadowColor = $1
                }
            }
            return ($0 as? any HasDropShadow.Type).map { binding($0) }
        },
        TraitProperty("offset", \Self.offset, css: { _ in [] }) {
            func binding(_ target: (some HasDropShadow).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.shadowOffset, &$1)
                } assign: {
                    $0.shadowOffset = $1
                }
            }
            return ($0 as? any HasDropShadow.Type).map { binding($0) }
        },
        TraitProperty("opacity", \Self.opacity, check: .within(0...1), css: { _ in [] }) {
            func binding(_ target: (some HasDropShadow).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.shadowOpacity, &$1)
                } assign: {
                    $0.shadowOpacity = $1
                }
            }
            return ($0 as? any HasDropShadow.Type).map { binding($0) }
        },
        TraitProperty("radius", \Self.radius, check: .atLeast(0), css: { _ in [] }) {
            func binding(_ target: (some HasDropShadow).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.shadowRadius, &$1)
                } assign: {
                    $0.shadowRadius = $1
                }
            }
            return ($0 as? any HasDropShadow.Type).map { binding($0) }
        },
    ]
}

extension DropShadow {
    /// `box-shadow: x y blur colour`, the colour's alpha multiplied by the opacity.
    ///
    /// `box-shadow` is one value in CSS, so a part this trait leaves out is a target's default
    /// (black, no offset, opacity 0, radius 0), not what an earlier `DropShadow` set.
    var boxShadow: CSSDeclaration {
        var shown = color ?? .black
        shown.alpha = UInt8((Double(shown.alpha) * (opacity ?? 0)).rounded())
        let offset = offset ?? .zero
        return CSSDeclaration(
            "box-shadow", .list([.pixels(offset.width), .pixels(offset.height), .pixels(radius ?? 0), .color(shown)]))
    }
}
