/// The bytes of a spec file as both readers see them: a UTF-8 byte order mark removed, the
/// encoding checked, and byte offsets turned into the 1-based line and column a person sees.
///
/// The bytes are borrowed, so a `SpecText` must not outlive the buffer it was made from.
struct SpecText {
    /// The file's bytes after the byte order mark, if there was one.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The name as every location in the text holds it.
    let name: SourceName
    /// The name shown in locations.
    var source: String { name.string }

    /// Wraps `buffer`, dropping a leading UTF-8 byte order mark.
    ///
    /// Locations are computed as if the mark were not there, because editors show it as nothing
    /// and libyaml does the same, so both readers agree.
    init(_ buffer: UnsafeBufferPointer<UInt8>, source: String) {
        let hasBOM = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
        bytes = hasBOM ? UnsafeBufferPointer(rebasing: buffer[3...]) : buffer
        name = SourceName(source)
    }

    /// Throws a syntax error at the first byte that is not part of well-formed UTF-8 text: an
    /// ill-formed sequence, or a NUL, which neither syntax allows and which marks binary or
    /// UTF-16 files. A UTF-16 byte order mark is named as such rather than as a bad byte.
    func validateUTF8() throws(SpecError) {
        if bytes.count >= 2, (bytes[0], bytes[1]) == (0xFF, 0xFE) || (bytes[0], bytes[1]) == (0xFE, 0xFF) {
            let mark = bytes[0] == 0xFF ? "FF FE" : "FE FF"
            throw SpecError(
                .syntax, at: .start(of: source),
                "the file is UTF-16 (it starts with the byte order mark \(mark)); spec files must be UTF-8")
        }
        guard let offset = Self.firstNULOrInvalidUTF8(in: bytes) else { return }
        if bytes[offset] == 0 {
            // ASCII text saved as UTF-16 without a mark has a NUL beside every character.
            let looksLikeUTF16 = bytes.count >= 2 && (bytes[0] == 0) != (bytes[1] == 0)
            throw SpecError(
                .syntax, at: location(ofOffset: offset),
                looksLikeUTF16
                    ? "NUL byte: the file looks like UTF-16; spec files must be UTF-8"
                    : "NUL byte: spec files are UTF-8 text, and this looks like a binary file")
        }
        let byte = String(bytes[offset], radix: 16, uppercase: true)
        throw SpecError(
            .syntax, at: location(ofOffset: offset),
            "invalid UTF-8 byte 0x\(byte.count == 1 ? "0" : "")\(byte); spec files must be UTF-8")
    }

    /// The location of the byte at `offset`: lines end at LF, CRLF or a lone CR, and columns
    /// count Unicode scalars, so a multi-byte character is one column.
    ///
    /// Costs O(offset): the readers call it for errors and the YAML pre-scan, never once per node
    /// (the JSON reader tracks lines as it goes).
    func location(ofOffset offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    // The LF of a CRLF ends the line; counting the CR as a column would be wrong
                    // only for an offset pointing at the LF itself, which no reader reports.
                    column += 1
                } else {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(name: name, line: line, column: column)
    }

    /// The offset of the first NUL byte or the first byte that does not belong to a well-formed
    /// UTF-8 sequence (overlong forms, surrogates and values above U+10FFFF are ill-formed), or
    /// `nil`. One pass for both, so a large file is read once; a NUL is never part of a
    /// multi-byte sequence, so the byte at the offset says which of the two was found.
    static func firstNULOrInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            // Most spec text is ASCII without NULs: skip it eight bytes at a time. A byte of
            // `word` is zero exactly where `(word - 0x01…01) & ~word` has its high bit set.
            while index + 8 <= count {
                let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index)
                    .loadUnaligned(as: UInt64.self)
                let zeroBytes = (word &- 0x0101_0101_0101_0101) & ~word
                if (word | zeroBytes) & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { return nil }
            let lead = bytes[index]
            if lead == 0 { return index }
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return index }
            for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}

extension SpecText {
    /// The byte offset of a 1-based line and column (in Unicode scalars), or `nil` past the end.
    func offset(ofLine line: Int, column: Int) -> Int? {
        var currentLine = 1
        var index = 0
        while currentLine < line {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                currentLine += 1
            } else if byte == UInt8(ascii: "\r") {
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                currentLine += 1
            }
        }
        var currentColumn = 1
        while currentColumn < column {
            guard index < bytes.count else { return nil }
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            currentColumn += 1
        }
        return index <= bytes.count ? index : nil
    }
}
