package import Livery

/// The card's action button: a filled block (background, padding, rounded corners) around a
/// label (font and text colour).
package final class DemoButton: HasBackgroundColor, HasCornerRadius, HasFont, HasPadding, HasHidden {
    package var title: String
    package var backgroundColor: Color = .black
    package var cornerRadius: Double = 0
    package var font = Font.default
    package var textColor: Color = .white
    package var padding = Insets.zero
    package var isHidden = false

    package init(_ title: String) {
        self.title = title
    }
}
