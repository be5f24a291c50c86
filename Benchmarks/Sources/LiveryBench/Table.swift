import Foundation

/// The results as a text table for the terminal and as Markdown for the README.
enum Table {
    static let headers = ["fig", "metric", "value (p99)", "baseline", "ratio", "target", "verdict"]

    static func cells(_ row: Row) -> [String] {
        let unit = row.unit.isEmpty ? "" : " " + row.unit
        let value =
            row.value.map { value in
                Format.number(value) + unit + (row.p99.map { " (\(Format.number($0)))" } ?? "")
            } ?? "—"
        let baseline = (row.baselineValue.map { Format.number($0) + unit + ": " } ?? "") + row.baseline
        let ratio = row.ratio.map { Format.number($0) + "×" } ?? "—"
        return [row.figure, row.metric, value, baseline, ratio, row.target, row.verdict.rawValue]
    }

    /// Columns padded to their widest cell; notes on an indented line under each row.
    static func text(_ rows: [Row]) -> String {
        let body = rows.map(cells)
        var widths = headers.map(\.count)
        for cells in body {
            for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
        }
        var out = line(headers) + "\n" + line(widths.map { String(repeating: "-", count: $0) }) + "\n"
        for (row, cells) in zip(rows, body) {
            out += line(cells) + "\n"
            if !row.notes.isEmpty { out += "      " + row.notes + "\n" }
        }
        return out
    }

    static func markdown(_ rows: [Row]) -> String {
        var out = "| " + (headers + ["notes"]).joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: "---|", count: headers.count + 1) + "\n"
        for row in rows {
            let cells = (self.cells(row) + [row.notes]).map { $0.replacingOccurrences(of: "|", with: "\\|") }
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
