package import Livery

/// A small pill beside the card's title: a background colour, a text colour and, when its corner
/// radius is above zero, rounded ends.
package final class DemoBadge: HasBackgroundColor, HasTextColor, HasCornerRadius, HasHidden {
    package var text: String
    package var backgroundColor: Color = .black
    package var textColor: Color = .white
    package var cornerRadius: Double = 0
    package var isHidden = false

    package init(_ text: String) {
        self.text = text
    }
}
