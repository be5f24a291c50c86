import Livery

/// The target of figure 4's trait mixes: every capability a mix uses, five tweakables for `Set`,
/// and two properties of its own for ``Glow``. Plain stored properties, as ``BenchBox``.
final class MixBox: HasBackgroundColor, HasCornerRadius, HasOpacity, HasPadding, HasBorder, HasFont, HasDropShadow,
    Tweakable
{
    var backgroundColor: Color = .white
    var cornerRadius: Double = 0
    var opacity: Double = 1
    var padding: Insets = .zero
    var borderColor: Color = .clear
    var borderWidth: Double = 0
    var textColor: Color = .black
    var font = Font(name: "System", size: 17, weight: .regular)
    var shadowColor: Color = .black
    var shadowOffset: Size = .zero
    var shadowOpacity: Double = 0
    var shadowRadius: Double = 0
    var retries = 3
    var timeout = 1.5
    var scale = 1.0
    var limit = 10
    var label = ""
    var glowRadius: Double = 0
    var glowColor: Color = .clear

    static let tweakables: [String: Tweak<MixBox>] = [
        "retries": .property {
            swap(&$0.retries, &$1)
        } assign: {
            $0.retries = $1
        },
        "timeout": .property {
            swap(&$0.timeout, &$1)
        } assign: {
            $0.timeout = $1
        },
        "scale": .property {
            swap(&$0.scale, &$1)
        } assign: {
            $0.scale = $1
        },
        "limit": .property {
            swap(&$0.limit, &$1)
        } assign: {
            $0.limit = $1
        },
        "label": .property {
            swap(&$0.label, &$1)
        } assign: {
            $0.label = $1
        },
    ]
}

/// A mix of traits figure 4 times beside the hand-written loop doing the same property work.
protocol ApplyMix {
    /// What one identifier's traits set.
    associatedtype Values: Equatable
    /// The row's name for the mix.
    static var title: String { get }
    /// Distinct values for target `index` under spec `variant`.
    static func values(index: Int, variant: Int) -> Values
    /// The identifier's trait list, in JSON.
    static func specJSON(_ values: Values) -> String
    /// What `box` holds of the properties the mix sets.
    static func read(_ box: MixBox) -> Values
    /// Sets the mix's properties of `box` by hand.
    static func assign(_ values: Values, to box: MixBox)
}

extension ApplyMix {
    /// Colour `seed` picks, exact in text.
    static func color(_ seed: Int, _ variant: Int) -> Color {
        Color(
            red: UInt8(truncatingIfNeeded: seed), green: UInt8(truncatingIfNeeded: seed >> 8),
            blue: UInt8(truncatingIfNeeded: seed >> 16 ^ variant))
    }

    static func seed(_ index: Int, _ variant: Int) -> Int { index &* 2_654_435_761 &+ variant &* 40_503 }
}
