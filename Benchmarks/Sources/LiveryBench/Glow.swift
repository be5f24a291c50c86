import Livery

/// A custom trait of two properties declared for the provider's fast path by closures, as a
/// program's own trait would be: `{ type: Glow, radius: 4, color: "#FF0000" }`.
struct Glow: PropertyTrait {
    typealias Target = MixBox
    static let typeName = "Glow"
    var radius: Double
    var color: Color
    static let properties = [
        TraitProperty("radius", \Glow.radius, check: .atLeast(0)) {
            swap(&$0.glowRadius, &$1)
        } assign: {
            $0.glowRadius = $1
        },
        TraitProperty("color", \Glow.color) {
            swap(&$0.glowColor, &$1)
        } assign: {
            $0.glowColor = $1
        },
    ]
}

/// ``Glow`` declared by key paths: the same fast path, each access through the runtime's key path
/// projection.
struct KeyPathGlow: PropertyTrait {
    typealias Target = MixBox
    static let typeName = "Glow"
    var radius: Double
    var color: Color
    static let properties = [
        TraitProperty("radius", \KeyPathGlow.radius, check: .atLeast(0), sets: \MixBox.glowRadius),
        TraitProperty("color", \KeyPathGlow.color, sets: \MixBox.glowColor),
    ]
}

/// ``Glow`` as a program writes a trait that does its own work: `apply(to:)` and a ``Reversal``,
/// through the provider's general path.
struct GeneralGlow: Trait {
    typealias Target = MixBox
    static let typeName = "Glow"
    var radius: Double
    var color: Color

    func apply(to box: MixBox) throws -> Reversal<MixBox> {
        let old = (radius: box.glowRadius, color: box.glowColor)
        box.glowRadius = radius
        box.glowColor = color
        return Reversal {
            $0.glowRadius = old.radius
            $0.glowColor = old.color
        }
    }
}
