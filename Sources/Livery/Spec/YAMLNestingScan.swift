/// A quick pass over YAML bytes that refuses documents nesting deeper than the limit, before
/// Yams composes them.
///
/// Why: Yams builds its node tree recursively, about 0.9 KiB of stack per level in a debug build,
/// so `[[[[…` ten thousand deep (or as many indented mappings) would overflow a small thread
/// stack. libyaml stops at 1000 levels (about 2000 with indentless sequences), which is within
/// the 8 MiB that Linux gives `Thread`, Dispatch and Swift concurrency threads by default but
/// not within a 512 KiB one; this scan keeps the recursion near ``ReaderLimits/maxDepth`` instead.
///
/// The estimate follows libyaml's tokenizer where it matters and over-counts where unsure:
/// - block levels come from indentation, one per distinct column a line (or a compact `- `,
///   `? `, `: ` on it) opens, plus one for a sequence at the same column as its mapping key;
/// - flow levels count `[` and `{` outside quoted scalars, comments and block scalars.
/// A scalar whose text merely looks nested (deep indentation inside a block scalar, say) can
/// only raise the estimate; the converter then enforces the exact limit on the real tree, so
/// a document the scan lets through still fails precisely at the first node that is too deep.
struct YAMLNestingScan {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limit: Int
    private var index = 0
    private var flow = 0
    /// Open block collections: their column, and whether they are sequences.
    private var blocks: [(column: Int, isSequence: Bool)] = []
    /// Where the first alias and the first explicit key (`? `) are, if any.
    private var firstAlias: Int?
    private var firstExplicitKey: Int?
    /// Whether the outermost open flow collection contains an alias.
    private var aliasInFlow = false
    private var problem: (Int, Problem)?

    /// What the scan refuses.
    private enum Problem {
        /// The estimated nesting exceeds the limit here.
        case tooDeep
        /// An alias is (or is inside) a mapping key. Yams hashes every key to find duplicates, and
        /// hashing a key that aliases a billion-node tree takes minutes, before the converter's
        /// node count can stop it; keys are strings in a spec anyway.
        case aliasInKey
    }

    /// Throws ``SpecError/Code/limitExceeded`` where the estimated nesting first exceeds the
    /// limit (with two levels of slack, so documents at the limit get the converter's exact
    /// error), or ``SpecError/Code/typeMismatch`` where an alias is used in a mapping key.
    static func check(_ text: SpecText, limits: ReaderLimits) throws(SpecError) {
        var scan = YAMLNestingScan(bytes: text.bytes, limit: limits.maxDepth + 2)
        switch scan.firstProblem() {
        case nil:
            return
        case (let offset, .tooDeep)?:
            throw SpecError(
                .limitExceeded, at: text.location(ofOffset: offset),
                "document nests deeper than \(limits.maxDepth) levels (the depth limit)")
        case (let offset, .aliasInKey)?:
            throw SpecError(
                .typeMismatch, at: text.location(ofOffset: offset),
                "expected a string key, found an alias (aliases cannot be used in mapping keys)")
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        self.bytes = bytes
        self.limit = limit
    }

    private func byte(_ offset: Int) -> UInt8 { offset >= 0 && offset < bytes.count ? bytes[offset] : 0 }

    private func isBlank(_ offset: Int) -> Bool {
        switch byte(offset) {
        case 0, UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): true
        default: false
        }
    }

    private func isIndicator(_ offset: Int) -> Bool {
        let value = byte(offset)
        return (value == UInt8(ascii: "-") || value == UInt8(ascii: "?") || value == UInt8(ascii: ":"))
            && isBlank(offset + 1)
    }

    private var depth: Int { blocks.count + flow }

    private mutating func firstProblem() -> (Int, Problem)? {
        while index < bytes.count, problem == nil {
            if flow == 0, let offset = scanLineStart() { return (offset, .tooDeep) }
            if let offset = scanRestOfLine() { return (offset, .tooDeep) }
        }
        return problem
    }

    /// Records an explicit key or an alias; an explicit key in a document with aliases might
    /// hold one, which is refused without finding out exactly.
    private mutating func note(explicitKey: Int? = nil, alias: Int? = nil) {
        firstExplicitKey = firstExplicitKey ?? explicitKey
        firstAlias = firstAlias ?? alias
        if let key = firstExplicitKey, let alias = firstAlias, problem == nil {
            problem = (max(key, alias), .aliasInKey)
        }
    }

    /// Whether a `:` value indicator follows `offset` on the same line, after blanks: the
    /// token before it is a key.
    private func isFollowedByValueIndicator(_ offset: Int) -> Bool {
        var next = offset
        while byte(next) == UInt8(ascii: " ") || byte(next) == UInt8(ascii: "\t") { next += 1 }
        return byte(next) == UInt8(ascii: ":") && (flow > 0 || isBlank(next + 1))
    }

    /// Updates the block stack from a line's indentation and compact indicators.
    private mutating func scanLineStart() -> Int? {
        let lineStart = index
        while byte(index) == UInt8(ascii: " ") { index += 1 }
        let column = index - lineStart
        switch byte(index) {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"), 0: return nil
        default: break
        }
        if column == 0, byte(index) == byte(index + 1), byte(index) == byte(index + 2),
            byte(index) == UInt8(ascii: "-") || byte(index) == UInt8(ascii: "."), isBlank(index + 3)
        {
            // A document marker closes every block collection.
            blocks.removeAll()
            index += 3
            return nil
        }
        var isSequence = byte(index) == UInt8(ascii: "-") && isBlank(index + 1)
        while let last = blocks.last, last.column > column || (last.column == column && last.isSequence && !isSequence) {
            blocks.removeLast()
        }
        if let last = blocks.last, last.column == column, last.isSequence == isSequence || isSequence == false {
            // A sibling of the collection already open at this column.
        } else {
            blocks.append((column, isSequence))
        }
        // `- - key: value` opens a collection at each compact indicator's content.
        while isIndicator(index) {
            if byte(index) == UInt8(ascii: "?") { note(explicitKey: index) }
            index += 1
            while byte(index) == UInt8(ascii: " ") { index += 1 }
            switch byte(index) {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"), 0: return nil
            default: break
            }
            isSequence = byte(index) == UInt8(ascii: "-") && isBlank(index + 1)
            // A block scalar's content belongs to the collection that holds it.
            if byte(index) == UInt8(ascii: "|") || byte(index) == UInt8(ascii: ">") { break }
            blocks.append((index - lineStart, isSequence))
            if depth > limit { return index }
        }
        return depth > limit ? index : nil
    }

    /// Where the tokenizer is: about to read a token, inside a plain scalar, or just after a
    /// token (a quoted scalar, an alias, a closing bracket).
    private enum State { case tokenStart, plain, afterToken }

    /// Scans to the end of the line, or past it while a flow collection is open.
    private mutating func scanRestOfLine() -> Int? {
        var state = State.tokenStart
        let parentIndent = blocks.last?.column ?? 0
        while index < bytes.count {
            let current = bytes[index]
            let next = byte(index + 1)
            let isFlowIndicator = Self.isFlowIndicator(current)
            switch current {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
                // Inside a flow collection lines do not matter; outside, the next line starts afresh.
                if flow == 0 { return nil }
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
                continue
            case UInt8(ascii: "#") where state == .tokenStart || isBlank(index - 1):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
                continue
            default:
                break
            }
            if state == .plain, !(flow > 0 && isFlowIndicator) {
                // Only `: ` (or `:` before a flow indicator, inside flow) ends a plain scalar here.
                let endsKey = current == UInt8(ascii: ":")
                    && (isBlank(index + 1) || (flow > 0 && Self.isFlowIndicator(next)))
                if endsKey { state = .tokenStart }
                index += 1
                continue
            }
            if state == .afterToken, !isFlowIndicator, current != UInt8(ascii: ":") {
                state = .plain
                index += 1
                continue
            }
            let isOpener = current == UInt8(ascii: "[") || current == UInt8(ascii: "{")
            let isCloser = current == UInt8(ascii: "]") || current == UInt8(ascii: "}")
            if current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") {
                skipQuoted(current)
                state = .afterToken
                continue
            } else if (current == UInt8(ascii: "|") || current == UInt8(ascii: ">")) && flow == 0 {
                skipBlockScalar(parentIndent: parentIndent)
                return nil
            } else if isOpener && (flow > 0 || state == .tokenStart) {
                if flow == 0 { aliasInFlow = false }
                flow += 1
                if depth > limit { return index }
                state = .tokenStart
            } else if isCloser && flow > 0 {
                flow -= 1
                state = .afterToken
                if aliasInFlow, isFollowedByValueIndicator(index + 1), problem == nil {
                    problem = (index, .aliasInKey)
                    return nil
                }
            } else if current == UInt8(ascii: ",") {
                state = flow > 0 ? .tokenStart : .plain
            } else if current == UInt8(ascii: ":") && (flow > 0 || isBlank(index + 1)) {
                state = .tokenStart
            } else if (current == UInt8(ascii: "-") || current == UInt8(ascii: "?")) && isBlank(index + 1) {
                if current == UInt8(ascii: "?") { note(explicitKey: index) }
                state = .tokenStart
            } else if current == UInt8(ascii: "&") || current == UInt8(ascii: "!") || current == UInt8(ascii: "*") {
                // A property or an alias: skip its name; a property's node follows it.
                let start = index
                index += 1
                if current == UInt8(ascii: "!") {
                    while !isBlank(index), !(flow > 0 && Self.isFlowIndicator(byte(index))) { index += 1 }
                } else {
                    // libyaml's anchor names: ASCII letters, digits, `_` and `-`.
                    while Self.isAnchorByte(byte(index)) { index += 1 }
                }
                if current == UInt8(ascii: "*") {
                    note(alias: start)
                    aliasInFlow = aliasInFlow || flow > 0
                    if isFollowedByValueIndicator(index), problem == nil {
                        problem = (start, .aliasInKey)
                        return nil
                    }
                }
                state = current == UInt8(ascii: "*") ? .afterToken : .tokenStart
                continue
            } else {
                state = .plain
            }
            index += 1
        }
        return nil
    }

    private static func isAnchorByte(_ value: UInt8) -> Bool {
        switch value {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func isFlowIndicator(_ value: UInt8) -> Bool {
        value == UInt8(ascii: ",") || value == UInt8(ascii: "[") || value == UInt8(ascii: "]")
            || value == UInt8(ascii: "{") || value == UInt8(ascii: "}")
    }

    /// Skips a quoted scalar whose opening quote is at `index`, across lines if need be.
    private mutating func skipQuoted(_ quote: UInt8) {
        index += 1
        while index < bytes.count {
            let current = bytes[index]
            if quote == UInt8(ascii: "\""), current == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            index += 1
            if current == quote {
                // `''` is an escaped quote inside a single-quoted scalar.
                if quote == UInt8(ascii: "'"), byte(index) == quote {
                    index += 1
                    continue
                }
                return
            }
        }
    }

    /// Skips a `|` or `>` block scalar: its header line, then every line that is blank or
    /// indented more than `parentIndent`.
    private mutating func skipBlockScalar(parentIndent: Int) {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
            index += 1
        }
        while index < bytes.count {
            var next = index
            if bytes[next] == UInt8(ascii: "\r") { next += 1 }
            if byte(next) == UInt8(ascii: "\n") { next += 1 }
            let lineStart = next
            while byte(next) == UInt8(ascii: " ") { next += 1 }
            let isBlankLine = next >= bytes.count || bytes[next] == UInt8(ascii: "\n") || bytes[next] == UInt8(ascii: "\r")
            guard isBlankLine || next - lineStart > parentIndent else {
                index = lineStart
                return
            }
            index = next
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                index += 1
            }
        }
    }
}
