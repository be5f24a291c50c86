/// Numbers as the table and the notes print them.
enum Format {
    /// 10000 → "10,000".
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// Three significant digits or so: 0.00123, 1.23, 12.3, 1,234.
    static func number(_ value: Double, digits: Int? = nil) -> String {
        guard value.isFinite else { return "—" }
        let places =
            digits
            ?? {
                let magnitude = abs(value)
                if magnitude >= 100 || magnitude == 0 { return 0 }
                if magnitude >= 10 { return 1 }
                if magnitude >= 1 { return 2 }
                if magnitude >= 0.1 { return 3 }
                return 4
            }()
        if places == 0, abs(value) < 9e15 { return count(Int(value.rounded())) }
        let scale = pow10(places)
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: "."), !text.contains("e") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < places { text += String(repeating: "0", count: places - decimals) }
        }
        return text
    }

    private static func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }
}
