extension Color {
    /// The syntaxes ``init(parsing:)`` accepts, as error messages list them.
    static let expectedSyntax = "expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"

    /// Reads a colour written as `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` (hex digits in any case),
    /// `rgb(r, g, b)` or `rgba(r, g, b, a)`.
    ///
    /// In the functional forms `r`, `g` and `b` are integers 0...255 or percentages (`50%`), `a`
    /// is a number 0...1 or a percentage; the function name may be in any case, and whitespace
    /// around the whole text and around the parts is ignored. Anything else is an error that says
    /// what was expected: an invalid colour is never read as black.
    public init(parsing text: String) throws(ValueError) {
        // Nearly every colour a spec holds is written exactly `#RRGGBB` or the like: read from
        // its bytes first, and anything else (whitespace, a function, a mistake) as below.
        if text.utf8.first == UInt8(ascii: "#"), case .success(let color) = Self.decodeHex(text.utf8.dropFirst()) {
            self = color
            return
        }
        let source = ValueText.trimmed(text[...])
        if source.first == "#" {
            switch Self.decodeHex(source.dropFirst().utf8) {
            case .success(let color):
                self = color
            case .failure(.notAHexDigit(let character)):
                throw ValueError(
                    "invalid colour '\(text)': expected hexadecimal digits 0-9 and A-F after '#', found '\(character)'"
                )
            case .failure(.wrongLength):
                throw ValueError("invalid colour '\(text)': \(Self.expectedSyntax)")
            }
            return
        }
        self = try Self.parseFunction(source, text: text)
    }

    /// Reads a hex colour, `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA`, with or without the `#`.
    ///
    /// `nil` for anything else; use ``init(parsing:)`` to learn why a text is not a colour.
    public init?(hex: String) {
        let digits = hex.utf8.first == UInt8(ascii: "#") ? hex.utf8.dropFirst() : hex.utf8[...]
        guard case .success(let color) = Self.decodeHex(digits) else { return nil }
        self = color
    }

    /// Why hex digits are not a colour.
    private enum HexFailure: Error {
        case notAHexDigit(Character)
        case wrongLength
    }

    /// The colour of 3, 4, 6 or 8 hex digits (without the `#`), read byte by byte.
    private static func decodeHex(_ digits: Substring.UTF8View) -> Result<Color, HexFailure> {
        var value: UInt32 = 0  // the first 8 digits, the last in the lowest 4 bits
        var count = 0
        for byte in digits {
            guard let digit = hexValue(byte) else {
                // For the message, the character the byte is part of (`é`, not half of it).
                let text = Substring(digits)
                let bad = text.first { !($0.isASCII && $0.hexDigitValue != nil) } ?? Character(UnicodeScalar(byte))
                return .failure(.notAHexDigit(bad))
            }
            if count < 8 { value = value << 4 | UInt32(digit) }
            count += 1
        }
        func pair(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        // #RGB means #RRGGBB: each digit is repeated, so F is FF (255), not F0.
        func doubled(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift & 0xF) &* 17 }
        switch count {
        case 3: return .success(Color(red: doubled(8), green: doubled(4), blue: doubled(0), alpha: 255))
        case 4: return .success(Color(red: doubled(12), green: doubled(8), blue: doubled(4), alpha: doubled(0)))
        case 6: return .success(Color(red: pair(16), green: pair(8), blue: pair(0), alpha: 255))
        case 8: return .success(Color(red: pair(24), green: pair(16), blue: pair(8), alpha: pair(0)))
        default: return .failure(.wrongLength)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Reads `rgb(r, g, b)` or `rgba(r, g, b, a)` from `source`, the trimmed `text`.
    private static func parseFunction(_ source: Substring, text: String) throws(ValueError) -> Color {
        guard let open = source.firstIndex(of: "(") else {
            throw ValueError("invalid colour '\(text)': \(expectedSyntax)")
        }
        let name = ValueText.trimmed(source[..<open]).lowercased()
        guard name == "rgb" || name == "rgba" else {
            throw ValueError("invalid colour '\(text)': \(expectedSyntax)")
        }
        let afterOpen = source.index(after: open)
        guard let close = source[afterOpen...].firstIndex(of: ")") else {
            throw ValueError("invalid colour '\(text)': missing ')' after the \(name) components")
        }
        let trailing = ValueText.trimmed(source[source.index(after: close)...])
        guard trailing.isEmpty else {
            throw ValueError("invalid colour '\(text)': unexpected text '\(trailing)' after ')'")
        }
        let inner = source[afterOpen..<close]
        let components =
            ValueText.trimmed(inner).isEmpty
            ? [] : inner.split(separator: ",", omittingEmptySubsequences: false).map(ValueText.trimmed)
        let expectedCount = name == "rgb" ? 3 : 4
        guard components.count == expectedCount else {
            let found = components.isEmpty ? "none" : String(components.count)
            let hint = name == "rgb" && components.count == 4 ? "; use rgba(r, g, b, a) for a colour with alpha" : ""
            let list = name == "rgb" ? "r, g, b" : "r, g, b, a"
            throw ValueError("\(name) takes \(expectedCount) components (\(list)), found \(found)\(hint)")
        }
        let red = try colorComponent(components[0])
        let green = try colorComponent(components[1])
        let blue = try colorComponent(components[2])
        let alpha = expectedCount == 4 ? ValueText.channel(fromFraction: try alphaComponent(components[3])) : 255
        return Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// An `r`, `g` or `b` component: an integer 0...255 or a percentage 0%...100%.
    private static func colorComponent(_ text: Substring) throws(ValueError) -> UInt8 {
        let expected = "expected an integer 0...255 or a percentage 0%...100%"
        if text.isEmpty {
            throw ValueError("rgb component is empty: \(expected)")
        }
        if text.last == "%" {
            guard let percent = ValueText.decimal(ValueText.trimmed(text.dropLast())) else {
                throw ValueError("rgb component '\(text)' is not a number: \(expected)")
            }
            guard (0...100).contains(percent) else {
                throw ValueError("rgb component \(text) is out of range 0%...100%")
            }
            return ValueText.channel(fromFraction: percent / 100)
        }
        guard let value = ValueText.decimal(text) else {
            throw ValueError("rgb component '\(text)' is not a number: \(expected)")
        }
        guard value.rounded() == value else {
            throw ValueError("rgb component \(text) is not an integer: \(expected)")
        }
        guard (0...255).contains(value) else {
            throw ValueError("rgb component \(text) is out of range 0...255")
        }
        return UInt8(value)
    }

    /// The `a` of `rgba(…)`: a number 0...1 or a percentage.
    private static func alphaComponent(_ text: Substring) throws(ValueError) -> Double {
        try ValueText.unitFraction(text, name: "alpha")
    }
}
