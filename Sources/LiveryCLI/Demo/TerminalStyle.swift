package import Livery

/// How one cell of the terminal looks: 24-bit colours and a weight, as one SGR sequence.
package struct TerminalStyle: Hashable, Sendable {
    /// Bold, dim or neither: how a terminal shows a font's weight.
    package enum Weight: Hashable, Sendable {
        case regular, bold, dim

        /// Bold from semibold up, dim up to light.
        package init(_ weight: FontWeight) {
            self = weight.numericValue >= 600 ? .bold : weight.numericValue <= 300 ? .dim : .regular
        }
    }

    package var foreground: Color
    package var background: Color
    package var weight: Weight = .regular

    package init(foreground: Color, background: Color, weight: Weight = .regular) {
        self.foreground = foreground
        self.background = background
        self.weight = weight
    }

    /// One SGR sequence that sets everything from scratch (reset first, so no attribute of the
    /// previous cell leaks into this one).
    package var sgr: String {
        let weightCode =
            switch weight {
            case .regular: ""
            case .bold: ";1"
            case .dim: ";2"
            }
        return "\u{1B}[0\(weightCode);38;2;\(Self.channels(foreground));48;2;\(Self.channels(background))m"
    }

    private static func channels(_ color: Color) -> String {
        "\(color.red);\(color.green);\(color.blue)"
    }
}

extension Color {
    /// This colour painted over an opaque `backdrop`: a terminal has no transparency, so a
    /// colour's alpha (times `opacity`) mixes it with what lies beneath.
    package func composited(over backdrop: Color, opacity: Double = 1) -> Color {
        let weight = min(max(Double(alpha) / 255 * opacity, 0), 1)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * weight + Double(bottom) * (1 - weight)).rounded())
        }
        return Color(red: mix(red, backdrop.red), green: mix(green, backdrop.green), blue: mix(blue, backdrop.blue))
    }
}
