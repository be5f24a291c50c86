extension JSONReader {
    /// Reads a string, number, `true`, `false` or `null` at `position`.
    mutating func readScalar() throws(SpecError) -> SpecNode {
        let location = currentLocation()
        try countNode(at: location)
        let value: SpecNode.Value
        switch bytes[position] {
        case UInt8(ascii: "\""):
            value = .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            value = try readNumber(at: location)
        case UInt8(ascii: "t") where matches("true"):
            position += 4
            value = .bool(true)
        case UInt8(ascii: "f") where matches("false"):
            position += 5
            value = .bool(false)
        case UInt8(ascii: "n") where matches("null"):
            position += 4
            value = .null
        case UInt8(ascii: "/"):
            throw SpecError(.syntax, at: location, "comments are not allowed in JSON")
        default:
            try rejectNonFinite(at: location)
            let word = wordAt(position)
            if word.isEmpty {
                throw unexpected("a JSON value")
            }
            throw SpecError(.syntax, at: location, "expected a JSON value, found '\(word)'")
        }
        return SpecNode(value, at: location)
    }

    /// Throws if `NaN`, `Infinity` or a spelling of them starts at `position`: JSON has no such
    /// numbers, and saying so beats "unexpected character".
    func rejectNonFinite(at location: SourceLocation) throws(SpecError) {
        let word = wordAt(position)
        if Self.nonFiniteWords.contains(word) {
            throw SpecError(.invalidValue, at: location, "non-finite number '\(word)' is not allowed")
        }
    }

    private static let nonFiniteWords: Set<String> = [
        "NaN", "nan", "Infinity", "infinity", "inf", "-Infinity", "-infinity", "-inf",
    ]

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] {
            return false
        }
        // `nullx` is not `null` followed by garbage but a word nobody meant.
        return position + count == bytes.count || !Self.isWordByte(bytes[position + count])
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "+"):
            true
        default: false
        }
    }

    /// The run of word bytes at `offset`, for messages about a misspelt literal.
    private func wordAt(_ offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 32, Self.isWordByte(bytes[end]) { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    // MARK: Strings

    /// Reads a string at `position`, which holds its opening quote.
    mutating func readString() throws(SpecError) -> String {
        var hash: UInt64 = 0
        return try readString(hash: &hash)
    }

    /// Reads a string at `position`, which holds its opening quote; `hash` becomes the hash of
    /// its UTF-8 bytes that finds duplicate keys (FNV-1a, `FNV1a64`).
    mutating func readString(hash: inout UInt64) throws(SpecError) -> String {
        let quote = position
        let count = bytes.count
        var index = quote + 1
        hash = FNV1a64.offsetBasis
        // The bits of every byte: the high one says whether the string is ASCII (``lineIsASCII``).
        var bits: UInt8 = 0
        // Fast path: most strings have no escapes and become one slice of the input.
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                if bits >= 0x80 { lineIsASCII = false }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            hash = FNV1a64.hashing(hash, byte)
            bits |= byte
            index += 1
        }
        // Escapes are rare: columns after one are counted, whatever the string holds.
        lineIsASCII = false
        var utf8: [UInt8] = []
        utf8.reserveCapacity(index - quote + 16)
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<index]))
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                position = index + 1
                hash = utf8.reduce(FNV1a64.offsetBasis, FNV1a64.hashing)
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index = try readEscape(at: index, into: &utf8)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // Most often a missing closing quote rather than a deliberate line break.
                throw SpecError(
                    .syntax, at: location(ofOffset: quote),
                    "unterminated string: the line ends before its closing quote (write a line break as \\n)")
            case 0..<0x20:
                throw SpecError(
                    .syntax, at: location(ofOffset: index),
                    "control character \(Self.codePoint(UInt32(byte))) must be escaped in a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw SpecError(.syntax, at: location(ofOffset: quote), "unterminated string")
    }

    /// Decodes the escape at `offset` (its backslash) into `utf8`; returns the offset after it.
    private mutating func readEscape(at offset: Int, into utf8: inout [UInt8]) throws(SpecError) -> Int {
        guard offset + 1 < bytes.count else {
            throw SpecError(.syntax, at: location(ofOffset: offset), "unterminated string")
        }
        let simple: UInt8
        switch bytes[offset + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try readUnicodeEscape(at: offset, into: &utf8)
        default:
            let escape = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + 2)]), as: UTF8.self)
            throw SpecError(.syntax, at: location(ofOffset: offset), "invalid escape '\(escape)' in a string")
        }
        utf8.append(simple)
        return offset + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair of two, at `offset`.
    private mutating func readUnicodeEscape(at offset: Int, into utf8: inout [UInt8]) throws(SpecError) -> Int {
        let first = try hexQuad(at: offset)
        var scalarValue = first
        var end = offset + 6
        if (0xD800...0xDBFF).contains(first) {
            let hasLow =
                end + 1 < bytes.count && bytes[end] == UInt8(ascii: "\\") && bytes[end + 1] == UInt8(ascii: "u")
            let second = hasLow ? try hexQuad(at: end) : 0
            guard (0xDC00...0xDFFF).contains(second) else {
                throw SpecError(
                    .syntax, at: location(ofOffset: offset), "lone surrogate '\\u\(Self.hex(first))' in a string")
            }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        } else if (0xDC00...0xDFFF).contains(first) {
            throw SpecError(
                .syntax, at: location(ofOffset: offset), "lone surrogate '\\u\(Self.hex(first))' in a string")
        }
        // Surrogates were excluded above, so this always succeeds.
        if let scalar = Unicode.Scalar(scalarValue) {
            utf8.append(contentsOf: scalar.utf8)
        }
        return end
    }

    /// The value of the four hex digits after the `\u` at `offset`.
    private mutating func hexQuad(at offset: Int) throws(SpecError) -> UInt32 {
        var value: UInt32 = 0
        for index in (offset + 2)..<(offset + 6) {
            let digit: UInt8
            switch index < bytes.count ? bytes[index] : 0 {
            case let byte where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): digit = byte - UInt8(ascii: "0")
            case let byte where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte):
                digit = byte - UInt8(ascii: "a") + 10
            case let byte where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte):
                digit = byte - UInt8(ascii: "A") + 10
            default:
                throw SpecError(
                    .syntax, at: location(ofOffset: offset), "invalid escape: '\\u' must be followed by 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func codePoint(_ value: UInt32) -> String { "U+" + hex(value) }

    // MARK: Errors

    /// An error at `position` saying what was expected and what was found there instead.
    mutating func unexpected(_ expected: String) -> SpecError {
        let found: String
        if position >= bytes.count {
            found = "the end of the document"
        } else if bytes[position] == UInt8(ascii: "/"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "/") || bytes[position + 1] == UInt8(ascii: "*")
        {
            return SpecError(.syntax, at: currentLocation(), "comments are not allowed in JSON")
        } else {
            let tail = UnsafeBufferPointer(rebasing: bytes[position..<min(position + 4, bytes.count)])
            let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            let printable = scalar.properties.generalCategory
            switch printable {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
                .privateUse, .surrogate:
                found = Self.codePoint(scalar.value)
            default:
                found = "'\(scalar)'"
            }
        }
        return SpecError(.syntax, at: currentLocation(), "expected \(expected), found \(found)")
    }
}
