/// The variables of one theme, and the substitution of `@references` and `~functions` in the
/// values that use them.
///
/// `"@colors.accent"` is replaced by that variable's (resolved) value, whatever its kind, so a
/// whole `offset` mapping can be a variable. `"~alpha(@colors.text, 0.3)"` becomes a colour.
/// A string that really starts with `@` or `~` is written `@@…` or `~~…`.
struct VariableScope {
    /// How many references may lead through one another. Resolution recurses once per link, so
    /// an unbounded chain (a file of `v0: "@v1"`, `v1: "@v2"`, …) would overflow the stack.
    static let maximumReferenceDepth = 64

    /// What a text is to substitution, by how it starts.
    enum Lead: Equatable {
        /// `@…`: a reference, to the variable whose path is the rest of the text.
        case reference
        /// `~…`: a colour function.
        case function
        /// `@@…` or `~~…`: a literal that starts with its first character.
        case escaped
        /// Anything else: a literal.
        case plain
    }

    /// How `text` starts, by its characters: `@` followed by a combining mark is one character,
    /// not `@`. Read from the first bytes where they settle it (they are ASCII in nearly every
    /// spec, and every value of a spec is asked), from the characters otherwise.
    static func lead(of text: String) -> Lead {
        var bytes = text.utf8.makeIterator()
        let first = bytes.next()
        guard first == UInt8(ascii: "@") || first == UInt8(ascii: "~") else { return .plain }
        let single: Lead = first == UInt8(ascii: "@") ? .reference : .function
        // A character ends before an ASCII byte (bar CR LF) and at the end of the text.
        guard let second = bytes.next() else { return single }
        if second < 0x80, second != first { return single }
        if second == first, (bytes.next() ?? 0) < 0x80 { return .escaped }
        if text.hasPrefix("@@") || text.hasPrefix("~~") { return .escaped }
        if text.hasPrefix("@") { return .reference }
        return text.hasPrefix("~") ? .function : .plain
    }

    private let variables: SpecNode
    private var memo: [String: SpecNode] = [:]
    /// Evaluated `~functions` by their text: a spec repeats the same few many times.
    private var evaluated: [String: (color: Color, reads: [String])] = [:]
    /// The variables being resolved, outermost first, with where each one's value is defined.
    private var resolving: [(path: String, definition: SourceLocation)] = []
    /// The variable paths read directly since the last ``takeReads()``.
    private var reads: [String] = []
    /// For each variable resolved (or tried), the paths its value reads directly. With the
    /// reads of each entry, this tells which entries a theme's overrides can change.
    private(set) var readsOfVariable: [String: [String]] = [:]

    init(variables: SpecNode) {
        self.variables = variables
    }

    /// `node` with every reference and function inside it substituted.
    mutating func substitute(_ node: SpecNode) throws(SpecError) -> SpecNode {
        switch node.value {
        case .string(let text):
            switch Self.lead(of: text) {
            case .escaped: return SpecNode(.string(String(text.dropFirst())), at: node.location)
            case .reference: return try value(of: String(text.dropFirst()), at: node.location)
            case .function:
                return SpecNode(.string(try evaluateOnce(text, at: node.location).description), at: node.location)
            case .plain: return node
            }
        case .sequence(var items):
            // Rebuilt only where something changes: most values hold no reference at all.
            for index in items.indices where Self.needsSubstitution(items[index]) {
                items[index] = try substitute(items[index])
            }
            return SpecNode(.sequence(items), at: node.location)
        case .mapping(var members):
            for index in members.indices where Self.needsSubstitution(members[index].value) {
                members[index].value = try substitute(members[index].value)
            }
            return SpecNode(.mapping(members), at: node.location)
        case .null, .bool, .int, .double:
            return node
        }
    }

    /// The variable paths read directly since the last call, and starts a new record.
    mutating func takeReads() -> [String] {
        defer { reads = [] }
        return reads
    }

    /// Whether `node` holds a string that substitution changes (`@…`, `~…`, or their escapes).
    private static func needsSubstitution(_ node: SpecNode) -> Bool {
        switch node.value {
        case .string(let text): lead(of: text) != .plain
        case .sequence(let items): items.contains(where: needsSubstitution)
        case .mapping(let members): members.contains { needsSubstitution($0.value) }
        case .null, .bool, .int, .double: false
        }
    }

    /// The resolved value of variable `path` (`colors.accent`), referenced at `location`.
    mutating func value(of path: String, at location: SourceLocation) throws(SpecError) -> SpecNode {
        reads.append(path)
        if let known = memo[path] { return known }
        if let start = resolving.firstIndex(where: { $0.path == path }) {
            throw SpecError(.cycle, at: location, Self.cycle(resolving[start...], closedBy: path))
        }
        guard resolving.count < Self.maximumReferenceDepth else {
            let first = resolving.prefix(2).map { "@" + $0.path }.joined(separator: " → ")
            throw SpecError(
                .limitExceeded, at: location,
                "references lead through more than \(Self.maximumReferenceDepth) variables (\(first) → … → @\(path)); the limit is \(Self.maximumReferenceDepth)"
            )
        }
        let raw = try lookup(path, at: location)
        resolving.append((path, raw.location))
        let readers = takeReads()
        defer {
            resolving.removeLast()
            readsOfVariable[path] = takeReads()
            reads = readers
        }
        let resolved = try substitute(raw)
        memo[path] = resolved
        return resolved
    }

    /// `reference cycle: @a (a.yaml:1:5) → @b (sub/b.yaml:2:8) → @a`: each step with the place
    /// of its value, so a cycle across files can be followed.
    private static func cycle(
        _ steps: ArraySlice<(path: String, definition: SourceLocation)>, closedBy path: String
    ) -> SpecMessage {
        var parts: [SpecMessage.Part] = [.text("reference cycle: ")]
        for step in steps {
            parts += [.text("@\(step.path) ("), .location(step.definition), .text(") → ")]
        }
        parts.append(.text("@" + path))
        return SpecMessage(parts: parts)
    }

    private func lookup(_ path: String, at location: SourceLocation) throws(SpecError) -> SpecNode {
        var node = variables
        // Split on the UTF-8 bytes ('.' is ASCII), each part a String compared with Strings and
        // found by index: no member is copied on the way.
        var rest = path.utf8[...]
        while true {
            let dot = rest.firstIndex(of: UInt8(ascii: "."))
            let part = path[rest.startIndex..<(dot ?? rest.endIndex)]
            let key = String(part)
            guard case .mapping(let members) = node.value, let index = members.firstIndex(where: { $0.key == key })
            else {
                let walked = path[path.startIndex..<rest.startIndex]  // the parts found, each with its dot
                let known: [String] = (node.members ?? []).map { String(walked) + $0.key }
                let hint = Suggestion.closest(to: path, in: known).map { "; did you mean '@\($0)'?" } ?? ""
                throw SpecError(.unresolvedReference, at: location, "unknown variable '@\(path)'\(hint)")
            }
            node = members[index].value
            guard let dot else { return node }
            rest = rest[rest.index(after: dot)...]
        }
    }

    /// `evaluate`, remembered by text; a remembered result counts the same reads as the first.
    private mutating func evaluateOnce(_ text: String, at location: SourceLocation) throws(SpecError) -> Color {
        if let known = evaluated[text] {
            reads += known.reads
            return known.color
        }
        let readers = takeReads()
        defer { reads = readers + reads }
        let color = try evaluate(text, at: location)
        evaluated[text] = (color, reads)
        return color
    }

    private mutating func evaluate(_ text: String, at location: SourceLocation) throws(SpecError) -> Color {
        do {
            return try ColorFunction.evaluate(text) { path in
                let value = try self.value(of: path, at: location)
                guard let string = value.string else {
                    throw SpecError(
                        .typeMismatch, at: location,
                        "'@\(path)' in '\(text)' must be a colour, found \(value.foundDescription)")
                }
                return string
            }
        } catch let error as SpecError {
            throw error
        } catch let error as ValueError {
            throw SpecError(.invalidValue, at: location, error.message)
        } catch {
            throw SpecError(.invalidValue, at: location, "\(error)")
        }
    }
}
