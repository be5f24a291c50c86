/// Sets a target's font and text colour:
/// `{ type: Font, name: Inter, size: 18, weight: semibold, color: "#1C1C1E" }`.
/// A missing field leaves that part as it is, so `{ type: Font, size: 20 }` only resizes.
///
/// Its spec name is `Font`, as in the original Traits library; the Swift name differs only
/// because ``Font`` is the value type.
public struct FontTrait: PropertyTrait {
    /// Applies to a ``HasFont``.
    public typealias Target = any HasFont
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

    /// `name`, `size` (greater than 0) and `weight` set those parts of ``HasFont/font``; `color`
    /// sets ``HasTextColor/textColor``. In CSS, `font-family` (Livery's `System` is CSS's
    /// `system-ui`, which also follows any other name, as a platform falls back to its system
    /// font), `font-size` in pixels, `font-weight` as its number, and `color`.
    public static let properties = [
        TraitProperty("name", \Self.name, css: { [CSSDeclaration("font-family", fontFamily($0))] }) {
            func binding(_ target: (some HasFont).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.font.name, &$1)
                } assign: {
                    $0.font.name = $1
                }
            }
            return ($0 as? any HasFont.Type).map { binding($0) }
        },
        TraitProperty(
            "size", \Self.size, check: .greaterThan(0), css: { [CSSDeclaration("font-size", .pixels($0))] }
        ) {
            func binding(_ target: (some HasFont).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.font.size, &$1)
                } assign: {
                    $0.font.size = $1
                }
            }
            return ($0 as? any HasFont.Type).map { binding($0) }
        },
        TraitProperty(
            "weight", \Self.weight, css: { [CSSDeclaration("font-weight", .number(Double($0.numericValue)))] }
        ) {
            func binding(_ target: (some HasFont).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.font.weight, &$1)
                } assign: {
                    $0.font.weight = $1
                }
            }
            return ($0 as? any HasFont.Type).map { binding($0) }
        },
        TraitProperty("color", \Self.color, css: { [CSSDeclaration("color", .color($0))] }) {
            func binding(_ target: (some HasFont).Type) -> PropertyBinding {
                target.binding {
                    swap(&$0.textColor, &$1)
                } assign: {
                    $0.textColor = $1
                }
            }
            return ($0 as? any HasFont.Type).map { binding($0) }
        },
    ]
}

extension FontTrait {
    /// `name` as a `font-family` list that falls back to `system-ui`.
    private static func fontFamily(_ name: String) -> CSSValue {
        let system = CSSValue.keyword("system-ui")
        return name == Font.systemName ? system : .alternatives([.string(name), system])
    }
}
