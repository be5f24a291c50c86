/// A grid of styled character cells that the demo's renderer paints into, then turns into
/// terminal lines. Painting outside the grid is clipped, so layouts need no bounds checks.
package struct Canvas {
    /// A rectangle of cells.
    package struct Rect: Hashable, Sendable {
        package var x, y, width, height: Int

        package init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        var maxX: Int { x + width - 1 }
        var maxY: Int { y + height - 1 }
    }

    struct Cell: Hashable {
        var character: Character
        var style: TerminalStyle
    }

    package let width: Int
    package let height: Int
    private var cells: [Cell]

    /// A canvas of `width` × `height` blank cells in `style`.
    package init(width: Int, height: Int, style: TerminalStyle) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(character: " ", style: style), count: self.width * self.height)
    }

    /// The style of the cell at a position (nil outside the grid).
    package func style(x: Int, y: Int) -> TerminalStyle? {
        contains(x: x, y: y) ? cells[y * width + x].style : nil
    }

    /// The character at a position (nil outside the grid).
    package func character(x: Int, y: Int) -> Character? {
        contains(x: x, y: y) ? cells[y * width + x].character : nil
    }

    /// Sets one cell.
    package mutating func put(_ character: Character, x: Int, y: Int, style: TerminalStyle) {
        guard contains(x: x, y: y) else { return }
        cells[y * width + x] = Cell(character: character, style: style)
    }

    /// Writes `text` from `x` on row `y`, one cell a character; returns the column after it.
    @discardableResult
    package mutating func write(_ text: String, x: Int, y: Int, style: TerminalStyle) -> Int {
        var column = x
        for character in text {
            put(character, x: column, y: y, style: style)
            column += 1
        }
        return column
    }

    /// Fills a rectangle with blanks in `style`.
    package mutating func fill(_ rect: Rect, style: TerminalStyle) {
        for y in rect.y..<(rect.y + max(rect.height, 0)) {
            for x in rect.x..<(rect.x + max(rect.width, 0)) {
                put(" ", x: x, y: y, style: style)
            }
        }
    }

    /// The grid as terminal lines: each cell's character, with an SGR sequence wherever the
    /// style changes, and a reset at the end of each line.
    package func lines() -> [String] {
        (0..<height).map { y in
            var line = ""
            var current: TerminalStyle?
            for x in 0..<width {
                let cell = cells[y * width + x]
                if cell.style != current {
                    line += cell.style.sgr
                    current = cell.style
                }
                line.append(cell.character)
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The grid's characters only, one string a row: what a test reads to check the layout.
    package func text() -> [String] {
        (0..<height).map { y in String((0..<width).map { cells[y * width + $0].character }) }
    }

    private func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }
}
