/// Private tags put before repeated keys, so that Yams composes a document it refuses for its
/// repeated keys, and the converter, which reads these tags as plain keys, finds the first
/// repeat in document order itself.
///
/// Yams names one repeated key, and which one is not even stable: it sorts the repeated keys,
/// and its order says "neither first" between a scalar and a mapping, so the pick follows a
/// dictionary whose order Swift seeds per instance (found by Fuzz/FuzzSpecFolder: the same
/// bytes read twice gave two different errors). Each tag makes one occurrence differ from the
/// rest for Yams only; once none repeats for it, the converter's walk decides, the same way
/// every time.
struct YAMLKeyMarkers {
    /// One tag, where it goes in the original text.
    private struct Marker {
        var line: Int
        var column: Int
        var offset: Int
        var text: String
        /// Its length in columns (it is ASCII).
        var length: Int { text.utf8.count }
    }

    private static let tagPrefix = "tag:livery.dev,2025:first-occurrence-"

    /// Sorted by offset.
    private var markers: [Marker] = []

    /// Whether `tag` is one of these markers.
    static func isMarker(_ tag: String) -> Bool {
        tag.hasPrefix(tagPrefix)
    }

    /// Puts a tag before the key that starts at `line:column` of the marked text; false if
    /// that key has one already (marking it again would change nothing), or the place is not
    /// in the text.
    mutating func mark(line: Int, column: Int, in text: SpecText) -> Bool {
        var original = originalColumn(line: line, column: column)
        guard var offset = text.offset(ofLine: line, column: original) else { return false }
        // An empty key (`? ` alone) is placed on the blank after its indicator: the tag goes
        // after the blanks, where it tags the empty key instead of gluing onto the `?`.
        while offset < text.bytes.count, text.bytes[offset] == UInt8(ascii: " ") {
            offset += 1
            original += 1
        }
        guard !markers.contains(where: { $0.offset == offset }) else { return false }
        let tag = "!<\(Self.tagPrefix)\(markers.count)> "
        markers.append(Marker(line: line, column: original, offset: offset, text: tag))
        markers.sort { $0.offset < $1.offset }
        return true
    }

    /// The text with every marker in place.
    func markedText(_ text: SpecText) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.bytes.count + markers.reduce(0) { $0 + $1.length })
        var start = 0
        for marker in markers {
            bytes += text.bytes[start..<marker.offset]
            bytes += marker.text.utf8
            start = marker.offset
        }
        bytes += text.bytes[start...]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column in the original text of `column` on `line` of the marked text; a place
    /// inside a marker is the key the marker stands before.
    func originalColumn(line: Int, column: Int) -> Int {
        var shift = 0
        for marker in markers where marker.line == line {
            let start = marker.column + shift
            if column < start { break }
            if column < start + marker.length { return marker.column }
            shift += marker.length
        }
        return column - shift
    }
}
