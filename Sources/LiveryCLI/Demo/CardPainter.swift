import Livery

/// Paints the demo's card — shadow, surface, border, title with badge, caption, body and button —
/// for ``DemoRenderer``.
struct CardPainter {
    let scene: DemoScene
    /// The opaque screen colour the card sits on.
    let screen: Color

    private var card: DemoPanel { scene.card }
    private var surface: Color { card.backgroundColor.composited(over: screen) }
    private var border: Int { card.borderWidth > 0 ? 1 : 0 }

    func paint(on canvas: inout Canvas, in area: Canvas.Rect) {
        let width = min(60, area.width - 4)
        let padding = (
            top: DemoRenderer.rows(card.padding.top), left: DemoRenderer.columns(card.padding.left),
            bottom: DemoRenderer.rows(card.padding.bottom), right: DemoRenderer.columns(card.padding.right)
        )
        let innerWidth = max(width - 2 * border - padding.left - padding.right, 1)
        let body = scene.body.isHidden ? [] : Self.wrap(scene.body.text, width: innerWidth).prefix(3)
        let buttonHeight =
            scene.button.isHidden
            ? 0 : 1 + DemoRenderer.rows(scene.button.padding.top) + DemoRenderer.rows(scene.button.padding.bottom)
        // Title, caption, a gap, the body, a gap, the button.
        let contentHeight = 2 + 1 + body.count + 1 + buttonHeight
        let height = 2 * border + padding.top + contentHeight + padding.bottom
        let rect = Canvas.Rect(
            x: area.x + (area.width - width) / 2, y: area.y + max((area.height - height) / 2, 0), width: width,
            height: height)

        paintShadow(of: rect, on: &canvas)
        paintSurface(rect, on: &canvas)
        var y = rect.y + border + padding.top
        let x = rect.x + border + padding.left
        paintTitleRow(x: x, y: y, width: innerWidth, on: &canvas)
        paintCaption(x: x, y: y + 1, width: innerWidth, on: &canvas)
        y += 3
        for line in body {
            canvas.write(line, x: x, y: y, style: labelStyle(scene.body))
            y += 1
        }
        if !scene.button.isHidden { paintButton(x: x, y: y + 1, on: &canvas) }
    }

    private func paintShadow(of rect: Canvas.Rect, on canvas: inout Canvas) {
        guard card.shadowOpacity > 0, card.shadowColor.alpha > 0 else { return }
        // Shadow offsets are a few points, which at 8 or 12 points a cell would vanish: a cell
        // every 2 points keeps a 2-point drop visible as one row.
        let offset = (x: Int((card.shadowOffset.width / 2).rounded()), y: Int((card.shadowOffset.height / 2).rounded()))
        guard offset.x != 0 || offset.y != 0 else { return }
        let shadow = card.shadowColor.composited(over: screen, opacity: card.shadowOpacity)
        var shifted = rect
        shifted.x += offset.x
        shifted.y += offset.y
        canvas.fill(shifted, style: TerminalStyle(foreground: shadow, background: shadow))
    }

    /// The surface and its border; rounded corners show what lies beneath them.
    private func paintSurface(_ rect: Canvas.Rect, on canvas: inout Canvas) {
        let corners = [(rect.x, rect.y), (rect.maxX, rect.y), (rect.x, rect.maxY), (rect.maxX, rect.maxY)]
        let beneath = corners.map { canvas.style(x: $0.0, y: $0.1)?.background ?? screen }
        canvas.fill(rect, style: TerminalStyle(foreground: surface, background: surface))
        let rounded = card.cornerRadius > 0
        guard border > 0 else {
            if rounded, rect.height >= 3 {
                for (corner, under) in zip(corners, beneath) {
                    canvas.put(
                        " ", x: corner.0, y: corner.1, style: TerminalStyle(foreground: under, background: under))
                }
            }
            return
        }
        let box = BoxCharacters(heavy: card.borderWidth >= 2, rounded: rounded)
        let line = TerminalStyle(foreground: card.borderColor.composited(over: surface), background: surface)
        for x in (rect.x + 1)..<rect.maxX {
            canvas.put(box.horizontal, x: x, y: rect.y, style: line)
            canvas.put(box.horizontal, x: x, y: rect.maxY, style: line)
        }
        for y in (rect.y + 1)..<rect.maxY {
            canvas.put(box.vertical, x: rect.x, y: y, style: line)
            canvas.put(box.vertical, x: rect.maxX, y: y, style: line)
        }
        for (index, (corner, under)) in zip(corners, beneath).enumerated() {
            let style = rounded ? TerminalStyle(foreground: line.foreground, background: under) : line
            canvas.put(box.corners[index], x: corner.0, y: corner.1, style: style)
        }
    }

    private func paintTitleRow(x: Int, y: Int, width: Int, on canvas: inout Canvas) {
        let badge = scene.badge
        let rounded = badge.cornerRadius > 0
        let badgeWidth = badge.isHidden ? 0 : badge.text.count + 2 + (rounded ? 2 : 0)
        if !scene.title.isHidden {
            let room = max(width - badgeWidth - 1, 1)
            canvas.write(DemoRenderer.clipped(scene.title.text, to: room), x: x, y: y, style: labelStyle(scene.title))
        }
        guard !badge.isHidden else { return }
        let fill = badge.backgroundColor.composited(over: surface)
        let pill = TerminalStyle(foreground: badge.textColor.composited(over: fill), background: fill, weight: .bold)
        var column = x + width - badgeWidth
        if rounded {
            canvas.put("▐", x: column, y: y, style: TerminalStyle(foreground: fill, background: surface)); column += 1
        }
        column = canvas.write(" \(badge.text) ", x: column, y: y, style: pill)
        if rounded { canvas.put("▌", x: column, y: y, style: TerminalStyle(foreground: fill, background: surface)) }
    }

    /// What a terminal cannot show of the title — its font and size — and the card's radius, as text.
    private func paintCaption(x: Int, y: Int, width: Int, on canvas: inout Canvas) {
        let font = scene.title.font
        let caption =
            "\(font.name) \(Self.number(font.size)) \(font.weight.rawValue) · radius \(Self.number(card.cornerRadius))"
        var style = labelStyle(scene.body)
        style.weight = .dim
        canvas.write(DemoRenderer.clipped(caption, to: width), x: x, y: y, style: style)
    }

    /// The button: vertical padding as half blocks, so it reads as one shape, with the corner
    /// cells left out when it is rounded.
    private func paintButton(x: Int, y: Int, on canvas: inout Canvas) {
        let button = scene.button
        let fill = button.backgroundColor.composited(over: surface)
        let (top, bottom) = (DemoRenderer.rows(button.padding.top), DemoRenderer.rows(button.padding.bottom))
        let width =
            button.title.count + DemoRenderer.columns(button.padding.left) + DemoRenderer.columns(button.padding.right)
        let edge = TerminalStyle(foreground: fill, background: surface)
        let inset = button.cornerRadius > 0 ? 1 : 0
        for row in 0..<top {
            for column in inset..<(width - inset) {
                canvas.put(row == top - 1 ? "▄" : "█", x: x + column, y: y + row, style: edge)
            }
        }
        let labelRow = y + top
        canvas.fill(
            Canvas.Rect(x: x, y: labelRow, width: width, height: 1),
            style: TerminalStyle(foreground: fill, background: fill))
        var label = labelStyle(button)
        label.background = fill
        label.foreground = button.textColor.composited(over: fill)
        canvas.write(button.title, x: x + DemoRenderer.columns(button.padding.left), y: labelRow, style: label)
        for row in 0..<bottom {
            for column in inset..<(width - inset) {
                canvas.put(row == 0 ? "▀" : "█", x: x + column, y: labelRow + 1 + row, style: edge)
            }
        }
    }

    private func labelStyle(_ label: some HasFont) -> TerminalStyle {
        TerminalStyle(
            foreground: label.textColor.composited(over: surface), background: surface, weight: .init(label.font.weight)
        )
    }

    /// Words of `text` in lines of at most `width` characters (a longer word is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let word = String(word.prefix(width))
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// 18 as "18", 17.5 as "17.5".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
