package import Livery

/// A line of text in the demo's terminal UI (the card's title and body), styled by the font and
/// text colour traits. A terminal has one font size, so the weight is what shows: bold from
/// semibold up, dim up to light.
package final class DemoLabel: HasFont, HasHidden {
    package var text: String
    package var font = Font.default
    package var textColor: Color = .black
    package var isHidden = false

    package init(_ text: String) {
        self.text = text
    }
}
