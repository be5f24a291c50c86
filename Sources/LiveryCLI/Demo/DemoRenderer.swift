import Livery

/// Draws the demo's terminal UI from its targets' current values: a pure function of the scene,
/// the status and the terminal's size, so tests check frames without a terminal.
///
/// Layout, top to bottom: a header, the card centred on the screen, the status line and the
/// error line. Spec points become cells at 8 points a column and 12 points a row (a terminal
/// cell is about twice as tall as wide).
package enum DemoRenderer {
    /// The smallest terminal the UI fits in; smaller ones get a one-line notice.
    package static let minimumSize = (width: 30, height: 12)

    static let statusStyle = TerminalStyle(
        foreground: Color(red: 242, green: 242, blue: 247), background: Color(red: 58, green: 58, blue: 60))
    static let errorStyle = TerminalStyle(
        foreground: .white, background: Color(red: 179, green: 38, blue: 30), weight: .bold)

    /// One frame for a terminal of `width` × `height` cells.
    package static func render(_ scene: DemoScene, status: DemoStatus, width: Int, height: Int) -> Canvas {
        let screen = scene.screen.backgroundColor.composited(over: .black)
        let screenStyle = TerminalStyle(foreground: scene.body.textColor.composited(over: screen), background: screen)
        var canvas = Canvas(width: width, height: height, style: screenStyle)
        guard width >= minimumSize.width, height >= minimumSize.height else {
            canvas.write("terminal too small for livery demo", x: 0, y: 0, style: screenStyle)
            return canvas
        }
        canvas.write(clipped(status.header, to: width), x: 0, y: 0, style: screenStyle)
        let cardArea = Canvas.Rect(x: 0, y: 2, width: width, height: height - 4)
        if !scene.card.isHidden {
            CardPainter(scene: scene, screen: screen).paint(on: &canvas, in: cardArea)
        }
        drawStatus(status, on: &canvas)
        return canvas
    }

    private static func drawStatus(_ status: DemoStatus, on canvas: inout Canvas) {
        let statusRow = canvas.height - 2
        canvas.fill(Canvas.Rect(x: 0, y: statusRow, width: canvas.width, height: 1), style: statusStyle)
        canvas.write(clipped(status.line, to: canvas.width), x: 0, y: statusRow, style: statusStyle)
        guard let error = status.error else { return }
        // Several errors (a folder with two bad files) show the first and how many more.
        let errors = error.split(separator: "\n", omittingEmptySubsequences: true)
        var text = " " + (errors.first.map(String.init) ?? "")
        if errors.count > 1 { text += " (+\(errors.count - 1) more)" }
        let errorRow = canvas.height - 1
        canvas.fill(Canvas.Rect(x: 0, y: errorRow, width: canvas.width, height: 1), style: errorStyle)
        canvas.write(clipped(text, to: canvas.width), x: 0, y: errorRow, style: errorStyle)
    }

    /// `text` cut to `width` characters, with an ellipsis where it was cut.
    static func clipped(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(width, 0))) }
        return String(text.prefix(width - 1)) + "…"
    }

    /// Spec points as terminal columns (8 points each) or rows (12 points each).
    static func columns(_ points: Double) -> Int { max(Int((points / 8).rounded()), 0) }
    static func rows(_ points: Double) -> Int { max(Int((points / 12).rounded()), 0) }
}
