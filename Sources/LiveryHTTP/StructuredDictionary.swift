/// Reads an RFC 8941 structured-field Dictionary (with RFC 9651's Display Strings), as far as
/// the `Livery-Client` header needs: every item type is recognised, so a member the daemon does
/// not know yet (or parameters on a member) is skipped without breaking the rest, but only
/// strings, integers and inner lists of strings keep their values.
///
/// Works on the raw bytes; errors carry the 1-based byte column.
struct StructuredDictionary {
    /// A member's value.
    enum Item: Equatable {
        case string(String)
        case integer(Int)
        case innerList([Item])
        /// A token, decimal, boolean or byte sequence: valid, but not kept.
        case other(kind: String)

        var kind: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .innerList: "an inner list"
            case .other(let kind): kind
            }
        }
    }

    /// The members by key, with the column of each key; a repeated key keeps its last value.
    private(set) var members: [String: (item: Item, column: Int)] = [:]

    private let bytes: [UInt8]
    private var index = 0

    /// Parses `text`.
    init(parsing text: String) throws(ClientHeaderError) {
        bytes = Array(text.utf8)
        skip(spacesOnly: true)
        guard index < bytes.count else { throw error("the header is empty") }
        while true {
            let column = index + 1
            let key = try readKey()
            var item = Item.other(kind: "a boolean")  // a key alone means `?1`
            if peek == UInt8(ascii: "=") {
                index += 1
                item = peek == UInt8(ascii: "(") ? try readInnerList() : try readBareItem()
            }
            try skipParameters()
            members[key] = (item, column)
            skip(spacesOnly: false)
            guard index < bytes.count else { return }
            guard peek == UInt8(ascii: ",") else { throw error("expected ',' between members") }
            index += 1
            skip(spacesOnly: false)
            guard index < bytes.count else { throw error("expected a member after ','") }
        }
    }

    // MARK: Pieces

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func error(_ message: String) -> ClientHeaderError {
        ClientHeaderError(column: index + 1, message)
    }

    private mutating func skip(spacesOnly: Bool) {
        while let byte = peek, byte == 0x20 || (!spacesOnly && byte == 0x09) { index += 1 }
    }

    private mutating func readKey() throws(ClientHeaderError) -> String {
        guard let first = peek, Self.isLowercase(first) || first == UInt8(ascii: "*") else {
            throw error("expected a key (a lowercase letter or '*')")
        }
        let start = index
        while let byte = peek, Self.isLowercase(byte) || Self.isDigit(byte) || Self.keyPunctuation.contains(byte) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipParameters() throws(ClientHeaderError) {
        while peek == UInt8(ascii: ";") {
            index += 1
            skip(spacesOnly: true)
            _ = try readKey()
            if peek == UInt8(ascii: "=") {
                index += 1
                _ = try readBareItem()
            }
        }
    }

    private mutating func readInnerList() throws(ClientHeaderError) -> Item {
        index += 1  // "("
        var items: [Item] = []
        while true {
            skip(spacesOnly: true)
            if peek == UInt8(ascii: ")") {
                index += 1
                return .innerList(items)
            }
            items.append(try readBareItem())
            try skipParameters()
            guard peek == 0x20 || peek == UInt8(ascii: ")") else { throw error("expected ' ' or ')' in an inner list") }
        }
    }

    private mutating func readBareItem() throws(ClientHeaderError) -> Item {
        guard let byte = peek else { throw error("expected a value") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "%"): return .string(try readDisplayString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case UInt8(ascii: "?"):
            index += 1
            guard peek == UInt8(ascii: "0") || peek == UInt8(ascii: "1") else { throw error("expected '?0' or '?1'") }
            index += 1
            return .other(kind: "a boolean")
        case UInt8(ascii: ":"):
            index += 1
            while let byte = peek, byte != UInt8(ascii: ":") {
                guard Self.isBase64(byte) else { throw error("expected base64 or ':' in a byte sequence") }
                index += 1
            }
            guard peek != nil else { throw error("expected ':' to end the byte sequence") }
            index += 1
            return .other(kind: "a byte sequence")
        case _ where Self.isLetter(byte) || byte == UInt8(ascii: "*"):
            while let byte = peek, Self.isTokenCharacter(byte) { index += 1 }
            return .other(kind: "a token")
        default:
            throw error("expected a string, number, token, boolean or byte sequence")
        }
    }

    private mutating func readString() throws(ClientHeaderError) -> String {
        index += 1  // the opening quote
        var value: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                    throw error("expected '\"' or '\\' after '\\'")
                }
                index += 1
                value.append(escaped)
            case 0x20...0x7E: value.append(byte)
            default:
                index -= 1
                throw error("a string holds printable ASCII only; use a display string (%\"…\")")
            }
        }
        throw error("expected '\"' to end the string")
    }

    private mutating func readDisplayString() throws(ClientHeaderError) -> String {
        index += 1  // "%"
        guard peek == UInt8(ascii: "\"") else { throw error("expected '\"' after '%'") }
        index += 1
        var value: [UInt8] = []
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: value, as: UTF8.self) else {
                    throw error("the display string is not valid UTF-8")
                }
                index += 1
                return text
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, let high = Self.hexValue(bytes[index + 1]),
                    let low = Self.hexValue(bytes[index + 2])
                else { throw error("expected two lowercase hex digits after '%'") }
                value.append(high << 4 | low)
                index += 3
            case 0x20...0x7E:
                value.append(byte)
                index += 1
            default:
                throw error("a display string holds printable ASCII and %-escapes only")
            }
        }
        throw error("expected '\"' to end the display string")
    }

    private mutating func readNumber() throws(ClientHeaderError) -> Item {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while let byte = peek, Self.isDigit(byte) { index += 1 }
        let integerDigits = index - digitsStart
        guard (1...15).contains(integerDigits) else { throw error("expected 1 to 15 digits") }
        if peek == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while let byte = peek, Self.isDigit(byte) { index += 1 }
            guard integerDigits <= 12, (1...3).contains(index - fractionStart) else {
                throw error("a decimal has at most 12 digits before '.' and 1 to 3 after")
            }
            return .other(kind: "a decimal")
        }
        // 15 digits always fit an Int.
        return .integer(Int(String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0)
    }

    // MARK: Character classes

    private static let keyPunctuation: Set<UInt8> = Set("_-.*".utf8)
    private static let tokenPunctuation: Set<UInt8> = Set("!#$%&'*+-.^_`|~:/".utf8)

    private static func isLowercase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { isLowercase(byte) || (0x41...0x5A).contains(byte) }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || tokenPunctuation.contains(byte)
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "=")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
