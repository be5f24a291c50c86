/// A strict RFC 8259 JSON parser over UTF-8 bytes that produces ``SpecNode``s with the exact
/// 1-based line and column of every value and key.
///
/// Hand-written rather than Foundation's `JSONSerialization` because specs need locations on
/// every node, and because strictness is the point: comments, trailing commas, duplicate keys,
/// leading zeros, non-finite or out-of-range numbers, lone surrogates, raw control characters and
/// anything after the value are errors, each pointing at the offending place.
///
/// It never recurses: open arrays and objects live on an explicit stack bounded by
/// ``ReaderLimits/maxDepth``, so no input can overflow the thread's stack.
struct JSONReader {
    /// An array or object still open. Its values so far are at the end of the reader's `items`
    /// or `members`, from `start` on: one list for all open containers, so a container is
    /// allocated once, at its exact size, when it closes.
    struct Frame {
        var isObject: Bool
        var location: SourceLocation
        var start: Int
        /// The key whose value is being read, and its hash (FNV-1a, `FNV1a64`; equal hashes only mean the keys are compared).
        var key = ""
        var keyHash: UInt64 = 0
        /// One bit for each key's hash, chosen by its low six bits (the ones the last byte
        /// moves: `t1` and `t2` differ there): a key whose bit is clear is new, with no search.
        var keyBits: UInt64 = 0
        var keyLocation: SourceLocation
        /// Member index by key, built once an object is too large for a linear duplicate search.
        var keyIndex = MemberIndex()

        init(isObject: Bool, location: SourceLocation, start: Int) {
            self.isObject = isObject
            self.location = location
            self.start = start
            self.keyLocation = location
        }
    }

    let text: SpecText
    let limits: ReaderLimits
    /// The offset of the next byte to read.
    var position = 0
    /// The current line and the offset where it starts.
    var line = 1
    var lineStart = 0
    /// A column already computed on the current line and where: columns are counted forward from
    /// it, so computing one location per node costs O(n) for the whole document.
    var columnOffset = 0
    var column = 1
    /// Whether every string read on the current line so far was ASCII. Only strings can hold
    /// other bytes (anywhere else they are an error), so until one does, a column is the byte
    /// offset from the line's start, with no bytes to count.
    var lineIsASCII = true
    var nodeCount = 0
    /// The values of the open arrays and the members of the open objects, innermost last.
    var items: [SpecNode] = []
    var members: [SpecNode.Member] = []
    /// The hash (FNV-1a, `FNV1a64`) of each of `members`' keys, at the same index: a duplicate search
    /// compares these and only compares keys whose hashes are equal.
    var keyHashes: [UInt64] = []

    /// The keys ``read(_:limits:noting:)`` looks out for, with their hashes, and whether an
    /// object has had one.
    private let notedKeys: [(key: String, hash: UInt64)]
    private var holdsNotedKey = false

    var bytes: UnsafeBufferPointer<UInt8> { text.bytes }

    /// Parses `text` (already checked to be UTF-8) as one JSON value.
    static func read(_ text: SpecText, limits: ReaderLimits) throws(SpecError) -> SpecNode {
        try read(text, limits: limits, noting: []).root
    }

    /// Parses `text` as one JSON value, and says whether any object in it has one of `keys`:
    /// found while reading, at the cost of comparing each key's hash, where a walk of the tree
    /// afterwards would read all of it again.
    static func read(
        _ text: SpecText, limits: ReaderLimits, noting keys: [String]
    ) throws(SpecError) -> (root: SpecNode, holdsNotedKey: Bool) {
        var reader = JSONReader(text: text, limits: limits, noting: keys)
        let root = try reader.readDocument()
        return (root, reader.holdsNotedKey)
    }

    private init(text: SpecText, limits: ReaderLimits, noting keys: [String]) {
        self.text = text
        self.limits = limits
        self.notedKeys = keys.map { ($0, $0.utf8.reduce(FNV1a64.offsetBasis, FNV1a64.hashing)) }
    }

    private mutating func readDocument() throws(SpecError) -> SpecNode {
        skipWhitespace()
        guard position < bytes.count else {
            throw SpecError(.syntax, at: .start(of: text.source), "empty document: expected a JSON value")
        }
        var stack: [Frame] = []
        reading: while true {
            // A value starts at `position`.
            guard position < bytes.count else { throw unexpected("a JSON value") }
            var value: SpecNode
            let opener = bytes[position]
            if opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{") {
                let location = currentLocation()
                guard stack.count < limits.maxDepth else { throw limits.depthError(at: location) }
                try countNode(at: location)
                position += 1
                skipWhitespace()
                if opener == UInt8(ascii: "[") {
                    if peek() == UInt8(ascii: "]") {
                        position += 1
                        value = SpecNode(.sequence([]), at: location)
                    } else {
                        stack.append(Frame(isObject: false, location: location, start: items.count))
                        continue reading
                    }
                } else if peek() == UInt8(ascii: "}") {
                    position += 1
                    value = SpecNode(.mapping([]), at: location)
                } else {
                    stack.append(Frame(isObject: true, location: location, start: members.count))
                    try readKey(into: &stack[stack.count - 1])
                    continue reading
                }
            } else {
                value = try readScalar()
            }
            // Attach the value to its container, then close every container the input closes.
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].isObject {
                    // Moved, not copied: a closing container gives `value` a new one.
                    members.append(
                        SpecNode.Member(key: stack[top].key, keyLocation: stack[top].keyLocation, value: consume value))
                    keyHashes.append(stack[top].keyHash)
                } else {
                    items.append(consume value)
                }
                skipWhitespace()
                let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                switch peek() {
                case UInt8(ascii: ","):
                    let comma = currentLocation()
                    position += 1
                    skipWhitespace()
                    if peek() == closer {
                        throw SpecError(
                            .syntax, at: comma, "trailing comma before '\(Character(Unicode.Scalar(closer)))'")
                    }
                    if stack[top].isObject {
                        try readKey(into: &stack[top])
                    }
                    continue reading
                case closer:
                    position += 1
                    let frame = stack.removeLast()
                    if frame.isObject {
                        while keyHashes.count > frame.start { keyHashes.removeLast() }
                    }
                    value = SpecNode(
                        frame.isObject
                            ? .mapping(Self.takeLast(members.count - frame.start, of: &members))
                            : .sequence(Self.takeLast(items.count - frame.start, of: &items)),
                        at: frame.location)
                default:
                    let what = stack[top].isObject ? "after an object member" : "after an array element"
                    throw unexpected("',' or '\(Character(Unicode.Scalar(closer)))' \(what)")
                }
            }
            skipWhitespace()
            guard position == bytes.count else {
                throw unexpected("the end of the document after the JSON value")
            }
            return value
        }
    }

    /// Reads `"key" :` into `frame`, refusing a key the object already has.
    private mutating func readKey(into frame: inout Frame) throws(SpecError) {
        guard peek() == UInt8(ascii: "\"") else {
            throw unexpected("a string key")
        }
        let location = currentLocation()
        var hash: UInt64 = 0
        let key = try readString(hash: &hash)
        if let first = firstLocation(of: key, hash: hash, in: &frame) {
            throw SpecError(.duplicateKey, at: location, "duplicate key '\(key)' (first at \(first))")
        }
        for noted in notedKeys where noted.hash == hash && noted.key == key {
            holdsNotedKey = true
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw unexpected("':' after the key '\(key)'")
        }
        position += 1
        skipWhitespace()
        frame.key = key
        frame.keyHash = hash
        frame.keyLocation = location
    }

    /// Where the open object `frame` already has `key`, if it does. Up to
    /// ``linearSearchLimit`` members, a search of their hashes where the key's bit is set,
    /// comparing keys only where the hashes are equal; past it, their ``MemberIndex``.
    private func firstLocation(of key: String, hash: UInt64, in frame: inout Frame) -> SourceLocation? {
        guard members.count - frame.start < Self.linearSearchLimit else {
            // The index records every key it is asked about: asked about each, past the bits.
            return frame.keyIndex.firstLocation(of: key, in: members[frame.start...])
        }
        let bit: UInt64 = 1 << (hash & 63)
        defer { frame.keyBits |= bit }
        guard frame.keyBits & bit != 0 else { return nil }
        var index = frame.start
        while let match = Self.index(of: hash, in: keyHashes, from: index) {
            if members[match].key == key { return members[match].keyLocation }
            index = match + 1
        }
        return nil
    }

    /// The first index from `start` on where `hashes` holds `hash`.
    private static func index(of hash: UInt64, in hashes: [UInt64], from start: Int) -> Int? {
        hashes.withUnsafeBufferPointer { hashes in
            var index = start
            while index < hashes.count {
                if hashes[index] == hash { return index }
                index += 1
            }
            return nil
        }
    }

    /// The number of members past which an object's duplicate search hashes its keys into a
    /// dictionary: below it, a linear search of the hashes costs less than hashing every key
    /// again with the dictionary's seeded hash.
    static let linearSearchLimit = 64

    /// The last `count` elements of `list`, moved out of it into an array of exactly their number:
    /// reserved, appended and reversed rather than built with `Array(unsafeUninitializedCapacity:)`,
    /// which allocates through the standard library's unspecialized code (a generic metadata
    /// lookup for every container), or copied from a slice, which costs more again.
    private static func takeLast<Element>(_ count: Int, of list: inout [Element]) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(count)
        for _ in 0..<count { taken.append(list.removeLast()) }
        // Through the buffer, whose swaps move elements; the array's own swaps copy them.
        taken.withUnsafeMutableBufferPointer { $0.reverse() }
        return taken
    }

    /// Counts one more value against ``ReaderLimits/maxNodes``.
    mutating func countNode(at location: SourceLocation) throws(SpecError) {
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else {
            throw SpecError(
                .limitExceeded, at: location, "document has more than \(limits.maxNodes) nodes (the node limit)")
        }
    }

    // MARK: Position

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Skips JSON whitespace (space, tab, LF, CR), counting lines.
    mutating func skipWhitespace() {
        let count = bytes.count
        while position < count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                startLine()
            case UInt8(ascii: "\r"):
                position += 1
                if position < count, bytes[position] == UInt8(ascii: "\n") { position += 1 }
                startLine()
            default:
                return
            }
        }
    }

    private mutating func startLine() {
        line += 1
        lineStart = position
        columnOffset = position
        column = 1
        lineIsASCII = true
    }

    /// The location of `position`.
    mutating func currentLocation() -> SourceLocation {
        location(ofOffset: position)
    }

    /// The location of an offset on the current line (strings never span lines in JSON).
    mutating func location(ofOffset offset: Int) -> SourceLocation {
        if lineIsASCII {
            return SourceLocation(name: text.name, line: line, column: offset - lineStart + 1)
        }
        if offset < columnOffset {
            // Only errors look back; start over from the line's start.
            columnOffset = lineStart
            column = 1
        }
        var index = columnOffset
        var scalars = column
        while index < offset {
            // Each byte that is not a UTF-8 continuation byte starts a scalar.
            if bytes[index] & 0xC0 != 0x80 { scalars += 1 }
            index += 1
        }
        columnOffset = offset
        column = scalars
        return SourceLocation(name: text.name, line: line, column: scalars)
    }
}
