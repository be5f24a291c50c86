import Livery
import LiveryCLI
import Testing

/// The cell grid under the demo's frames: clipping, and one SGR sequence per change of style.
@Suite struct CanvasTests {
    let plain = TerminalStyle(foreground: .black, background: .white)
    let loud = TerminalStyle(foreground: .white, background: Color(red: 10, green: 132, blue: 255), weight: .bold)

    @Test func linesCarryOneSequenceWhereTheStyleChanges() {
        var canvas = Canvas(width: 4, height: 1, style: plain)
        canvas.write("ab", x: 0, y: 0, style: plain)
        canvas.write("c", x: 2, y: 0, style: loud)
        #expect(plain.sgr == "\u{1B}[0;38;2;0;0;0;48;2;255;255;255m")
        #expect(loud.sgr == "\u{1B}[0;1;38;2;255;255;255;48;2;10;132;255m")
        #expect(canvas.lines() == [plain.sgr + "ab" + loud.sgr + "c" + plain.sgr + " " + "\u{1B}[0m"])
    }

    @Test func paintingOutsideTheGridIsClipped() {
        var canvas = Canvas(width: 3, height: 2, style: plain)
        canvas.write("abcdef", x: -1, y: 1, style: loud)
        canvas.fill(Canvas.Rect(x: 2, y: -5, width: 10, height: 6), style: loud)
        canvas.put("z", x: 3, y: 0, style: loud)
        #expect(canvas.text() == ["   ", "bcd"])
        #expect(canvas.style(x: 2, y: 0) == loud)
        #expect(canvas.style(x: 1, y: 0) == plain)
        #expect(canvas.style(x: 3, y: 0) == nil)
    }

    @Test func translucentColoursMixWithWhatLiesBeneath() {
        let halfBlack = Color(red: 0, green: 0, blue: 0, alpha: 128)
        #expect(halfBlack.composited(over: .white) == Color(red: 127, green: 127, blue: 127))
        #expect(Color.black.composited(over: .white, opacity: 0.25) == Color(red: 191, green: 191, blue: 191))
        #expect(Color.black.composited(over: .white) == .black)
    }
}
