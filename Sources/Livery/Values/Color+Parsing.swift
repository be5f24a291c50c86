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
        let source = ValueText.trimmed(text[...])
        if source.first == "#" {
            switch Self.decodeHex(source.dropFirst()) {
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
        let digits = hex.first == "#" ? hex.dropFirst() : hex[...]
        guard case .success(let color) = Self.decodeHex(digits) else { return nil }
        self = color
    }

    /// Why hex digits are not a colour.
    private enum HexFailure: Error {
        case notAHexDigit(Character)
        case wrongLength
    }

    /// The colour of 3, 4, 6 or 8 hex digits (without the `#`).
    private static func decodeHex(_ digits: Substring) -> Result<Color, HexFailure> {
        var values: [UInt8] = []
        for character in digits {
            guard character.isASCII, let value = character.hexDigitValue else {
                return .failure(.notAHexDigit(character))
            }
            values.append(UInt8(value))
        }
        let channels: [UInt8]
        switch values.count {
        case 3, 4:
            // #RGB means #RRGGBB: each digit is repeated, so F is FF (255), not F0.
            channels = values.map { $0 << 4 | $0 }
        case 6, 8:
            channels = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
        default:
            return .failure(.wrongLength)
        }
        let alpha = channels.count == 4 ? channels[3] : 255
        return .success(Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha))
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
