package import Livery

/// A surface of the demo's terminal UI — the screen behind everything, or the card — styled by
/// the background, corner, border, shadow and padding traits.
package final class DemoPanel: HasBackgroundColor, HasCornerRadius, HasBorder, HasDropShadow, HasPadding, HasHidden {
    package var backgroundColor: Color
    package var cornerRadius: Double = 0
    package var borderColor: Color = .black
    package var borderWidth: Double = 0
    package var shadowColor: Color = .black
    package var shadowOffset = Size(width: 0, height: 0)
    package var shadowOpacity: Double = 0
    package var shadowRadius: Double = 0
    package var padding = Insets.zero
    package var isHidden = false

    package init(backgroundColor: Color) {
        self.backgroundColor = backgroundColor
    }
}
