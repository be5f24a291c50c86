/// A CSS tokenizer after CSS Syntax Level 3, §4 ("Tokenization"): what a browser makes of a
/// stylesheet before it parses rules, so that the fuzz targets check the writer's text against
/// the standard rather than against the writer's own idea of escaping. Numbers are kept as
/// their text; `unicode-range` tokens are not distinguished (the writer never writes `u+`).
public struct CSSTokenizer {
    /// One token, with the values a check needs.
    public enum Token: Equatable {
        case ident(String)
        case function(String)
        case atKeyword(String)
        case hash(String)
        case string(String)
        case badString
        case url(String)
        case badURL
        case delim(Unicode.Scalar)
        case number(String)
        case percentage(String)
        case dimension(String, unit: String)
        case whitespace
        case cdo
        case cdc
        case colon
        case semicolon
        case comma
        case open(Unicode.Scalar)
        case close(Unicode.Scalar)
    }

    /// The tokens of `text`, and whether a comment was left open at its end (which would hide
    /// everything after it).
    public static func tokens(of text: String) -> (tokens: [Token], unclosedComment: Bool) {
        var tokenizer = CSSTokenizer(text)
        var tokens: [Token] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return (tokens, tokenizer.unclosedComment)
    }

    private let input: [Unicode.Scalar]
    private var index = 0
    private var unclosedComment = false

    /// §3.3 preprocessing: CR LF, CR and FF become LF; NUL becomes U+FFFD.
    private init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        var previousCR = false
        for scalar in text.unicodeScalars {
            if previousCR && scalar == "\n" {
                previousCR = false
                continue
            }
            previousCR = scalar == "\r"
            switch scalar {
            case "\r", "\u{0C}": scalars.append("\n")
            case "\0": scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        input = scalars
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < input.count ? input[index + offset] : nil
    }

    private mutating func next() -> Token? {
        // Comments (§4.3.2) produce no token.
        while peek() == "/" && peek(1) == "*" {
            index += 2
            while index < input.count && !(peek() == "*" && peek(1) == "/") { index += 1 }
            if index >= input.count {
                unclosedComment = true
                return nil
            }
            index += 2
        }
        guard let c = peek() else { return nil }
        index += 1
        switch c {
        case "\n", "\t", " ":
            while let w = peek(), Self.isWhitespace(w) { index += 1 }
            return .whitespace
        case "\"", "'": return string(ending: c)
        case "#":
            if let n = peek(), Self.isName(n) || Self.validEscape(n, peek(1)) { return .hash(name()) }
            return .delim(c)
        case "(", "[", "{": return .open(c)
        case ")", "]", "}": return .close(c)
        case "+", ".":
            if startsNumber(c, peek(), peek(1)) {
                index -= 1
                return numeric()
            }
            return .delim(c)
        case ",": return .comma
        case "-":
            if startsNumber(c, peek(), peek(1)) {
                index -= 1
                return numeric()
            }
            if peek() == "-" && peek(1) == ">" {
                index += 2
                return .cdc
            }
            if startsIdentifier(c, peek(), peek(1)) {
                index -= 1
                return identLike()
            }
            return .delim(c)
        case ":": return .colon
        case ";": return .semicolon
        case "<":
            if peek() == "!" && peek(1) == "-" && peek(2) == "-" {
                index += 3
                return .cdo
            }
            return .delim(c)
        case "@":
            if startsIdentifier(peek(), peek(1), peek(2)) { return .atKeyword(name()) }
            return .delim(c)
        case "\\":
            if Self.validEscape(c, peek()) {
                index -= 1
                return identLike()
            }
            return .delim(c)
        default:
            if Self.isDigit(c) {
                index -= 1
                return numeric()
            }
            if Self.isNameStart(c) {
                index -= 1
                return identLike()
            }
            return .delim(c)
        }
    }

    // MARK: §4.3.4–4.3.6, 4.3.11

    private mutating func string(ending quote: Unicode.Scalar) -> Token {
        var value = String.UnicodeScalarView()
        while let c = peek() {
            index += 1
            switch c {
            case quote: return .string(String(value))
            case "\n":
                index -= 1
                return .badString
            case "\\":
                guard let n = peek() else { continue }
                if n == "\n" {
                    index += 1
                } else {
                    value.append(escape())
                }
            default: value.append(c)
            }
        }
        return .string(String(value))  // EOF: a parse error, but the string stands
    }

    private mutating func identLike() -> Token {
        let string = name()
        guard peek() == "(" else { return .ident(string) }
        index += 1
        if string.lowercased() == "url" {
            while peek().map(Self.isWhitespace) == true && peek(1).map(Self.isWhitespace) == true { index += 1 }
            let n = peek().map { Self.isWhitespace($0) ? peek(1) : $0 } ?? nil
            if n == "\"" || n == "'" { return .function(string) }
            return url()
        }
        return .function(string)
    }

    private mutating func url() -> Token {
        var value = String.UnicodeScalarView()
        while let w = peek(), Self.isWhitespace(w) { index += 1 }
        while let c = peek() {
            index += 1
            switch c {
            case ")": return .url(String(value))
            case "\"", "'", "(":
                badURLRemnants()
                return .badURL
            case "\\":
                if Self.validEscape(c, peek()) {
                    value.append(escape())
                } else {
                    badURLRemnants()
                    return .badURL
                }
            default:
                if Self.isWhitespace(c) {
                    while let w = peek(), Self.isWhitespace(w) { index += 1 }
                    if peek() == nil || peek() == ")" {
                        if peek() == ")" { index += 1 }
                        return .url(String(value))
                    }
                    badURLRemnants()
                    return .badURL
                }
                if Self.isNonPrintable(c) {
                    badURLRemnants()
                    return .badURL
                }
                value.append(c)
            }
        }
        return .url(String(value))
    }

    private mutating func badURLRemnants() {
        while let c = peek() {
            index += 1
            if c == ")" { return }
            if Self.validEscape(c, peek()) { _ = escape() }
        }
    }

    private mutating func numeric() -> Token {
        let start = index
        if peek() == "+" || peek() == "-" { index += 1 }
        while let d = peek(), Self.isDigit(d) { index += 1 }
        if peek() == ".", let d = peek(1), Self.isDigit(d) {
            index += 1
            while let d = peek(), Self.isDigit(d) { index += 1 }
        }
        if peek() == "e" || peek() == "E" {
            let sign = peek(1) == "+" || peek(1) == "-"
            if let d = peek(sign ? 2 : 1), Self.isDigit(d) {
                index += sign ? 2 : 1
                while let d = peek(), Self.isDigit(d) { index += 1 }
            }
        }
        let number = String(String.UnicodeScalarView(input[start..<index]))
        if startsIdentifier(peek(), peek(1), peek(2)) { return .dimension(number, unit: name()) }
        if peek() == "%" {
            index += 1
            return .percentage(number)
        }
        return .number(number)
    }

    /// §4.3.12: a name, escapes read.
    private mutating func name() -> String {
        var value = String.UnicodeScalarView()
        while let c = peek() {
            if Self.isName(c) {
                value.append(c)
                index += 1
            } else if Self.validEscape(c, peek(1)) {
                index += 1
                value.append(escape())
            } else {
                break
            }
        }
        return String(value)
    }

    /// §4.3.7, after the backslash.
    private mutating func escape() -> Unicode.Scalar {
        guard let c = peek() else { return "\u{FFFD}" }
        index += 1
        guard c.properties.isASCIIHexDigit else { return c }
        var hex = String(c)
        while hex.count < 6, let h = peek(), h.properties.isASCIIHexDigit {
            hex.unicodeScalars.append(h)
            index += 1
        }
        if let w = peek(), Self.isWhitespace(w) { index += 1 }
        guard let value = UInt32(hex, radix: 16), value != 0, let scalar = Unicode.Scalar(value) else {
            return "\u{FFFD}"
        }
        return scalar
    }

    // MARK: §4.2 definitions

    private static func isWhitespace(_ c: Unicode.Scalar) -> Bool { c == "\n" || c == "\t" || c == " " }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    private static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c.value >= 0x80
    }
    private static func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) || c == "-" }
    private static func isNonPrintable(_ c: Unicode.Scalar) -> Bool {
        c.value <= 0x08 || c.value == 0x0B || (0x0E...0x1F).contains(c.value) || c.value == 0x7F
    }
    private static func validEscape(_ first: Unicode.Scalar?, _ second: Unicode.Scalar?) -> Bool {
        first == "\\" && second != "\n" && second != nil
    }

    private func startsIdentifier(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
        guard let a else { return false }
        if a == "-" {
            guard let b else { return false }
            return Self.isNameStart(b) || b == "-" || Self.validEscape(b, c)
        }
        if Self.isNameStart(a) { return true }
        return Self.validEscape(a, b)
    }

    private func startsNumber(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
        guard let a else { return false }
        if a == "+" || a == "-" {
            guard let b else { return false }
            if Self.isDigit(b) { return true }
            return b == "." && c.map(Self.isDigit) == true
        }
        if a == "." { return b.map(Self.isDigit) == true }
        return Self.isDigit(a)
    }
}
