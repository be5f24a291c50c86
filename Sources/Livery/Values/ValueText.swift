/// Small text helpers shared by the value parsers.
///
/// Foundation's scanners accept more than a spec should (`"inf"`, `"0x1p3"`, locale-dependent
/// separators), and the values must read the same on every platform, so numbers are recognised
/// by a strict grammar here.
enum ValueText {
    /// `text` without leading and trailing whitespace.
    static func trimmed(_ text: Substring) -> Substring {
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return text[text.endIndex...] }
        return text[start...last]
    }

    /// The value of a plain decimal number: an optional sign, digits, an optional fraction
    /// (`12`, `-3`, `0.5`, `.5`, `1.`), no exponent. `nil` for anything else.
    static func decimal(_ text: Substring) -> Double? {
        var digits = text
        if let sign = digits.first, sign == "+" || sign == "-" {
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.allSatisfy(isDigits), parts.contains(where: { !$0.isEmpty }) else { return nil }
        return Double(String(text))
    }

    /// A number as a person would write it: `2` rather than `2.0`, `0.25` as is.
    static func format(_ value: Double) -> String {
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }

    /// A fraction 0...1 written as a number (`0.3`) or a percentage (`30%`).
    ///
    /// `name` is the quantity's name in messages: `alpha 1.5 is out of range 0...1`.
    static func unitFraction(_ text: Substring, name: String) throws(ValueError) -> Double {
        let text = trimmed(text)
        if text.last == "%" {
            let number = trimmed(text.dropLast())
            guard let percent = decimal(number) else {
                throw notAFraction(text, name: name)
            }
            guard (0...100).contains(percent) else {
                throw ValueError("\(name) \(text) is out of range 0%...100%")
            }
            return percent / 100
        }
        guard let value = decimal(text) else {
            throw notAFraction(text, name: name)
        }
        guard (0...1).contains(value) else {
            throw ValueError("\(name) \(text) is out of range 0...1")
        }
        return value
    }

    /// A fraction 0...1 scaled to a channel value 0...255, rounded to the nearest.
    static func channel(fromFraction fraction: Double) -> UInt8 {
        UInt8(max(0, min(255, (fraction * 255).rounded())))
    }

    private static func notAFraction(_ text: Substring, name: String) -> ValueError {
        let expected = "expected a number 0...1 or a percentage 0%...100%"
        if text.isEmpty {
            return ValueError("\(name) is empty: \(expected)")
        }
        return ValueError("\(name) '\(text)' is not a number: \(expected)")
    }
}
