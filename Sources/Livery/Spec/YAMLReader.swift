/// Reads one YAML document into ``SpecNode``s in a single pass over libyaml's events.
///
/// Every rule is checked as its event arrives, so the first problem in document order is the
/// one reported: a key that is not a string or repeats an earlier one, a tag that does not fit,
/// a collection past ``ReaderLimits/maxDepth``, a value past ``ReaderLimits/maxNodes``.
///
/// An alias expands to a copy of its anchored node, which keeps the anchored node's locations.
/// The copy shares the anchored node's storage and counts as the values it stands for, so an
/// alias bomb is refused at the alias that passes the node limit without expanding anything;
/// an alias that would nest past the depth limit is refused where it is used too. An empty
/// document (nothing but blanks and comments) is an error rather than `null`, because no caller
/// wants an empty spec by accident.
struct YAMLReader: ~Copyable {
    /// A list or mapping being read, with its children so far.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        var anchor: String?
        /// Values counted before this collection.
        var countBefore: Int
        var items: [SpecNode] = []
        var members: [SpecNode.Member] = []
        /// The key read and waiting for its value.
        var key: (name: String, location: SourceLocation)?
        /// Member index by key, built once a mapping is large enough for hashing to pay.
        var keyIndex = MemberIndex()
        /// Collection levels in this node, itself included.
        var height = 1
    }

    /// What an anchor names: a finished node, or a key scalar, typed as a value only if an
    /// alias uses it.
    private enum Anchored {
        case node(SpecNode, size: Int, height: Int)
        case key(YAMLScalar, SourceLocation)
    }

    private var parser: YAMLEventParser
    private let source: SourceName
    private let limits: ReaderLimits
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var nodeCount = 0

    /// Parses `text` (already checked to be UTF-8) as one YAML document.
    static func read(_ text: SpecText, limits: ReaderLimits) throws(SpecError) -> SpecNode {
        var reader = YAMLReader(parser: YAMLEventParser(text), source: text.name, limits: limits)
        return try reader.readDocument()
    }

    private init(parser: consuming YAMLEventParser, source: SourceName, limits: ReaderLimits) {
        self.parser = parser
        self.source = source
        self.limits = limits
    }

    private mutating func readDocument() throws(SpecError) -> SpecNode {
        guard let root = try readRoot() else {
            throw SpecError(
                .syntax, at: SourceLocation(name: source, line: 1, column: 1), "empty document: expected a YAML value")
        }
        switch try parser.next() {
        case .documentStart(let line, let column):
            let message = "found a second YAML document; a spec file holds exactly one"
            throw SpecError(.syntax, at: sourceLocation(line, column), message)
        default:
            return root
        }
    }

    /// The document's root node, or `nil` if the stream holds no document.
    private mutating func readRoot() throws(SpecError) -> SpecNode? {
        while true {
            var value: SpecNode
            var height = 0
            switch try parser.next() {
            case .streamEnd, .documentStart:
                return nil
            case .scalar(let scalar, let anchor, let line, let column):
                let location = sourceLocation(line, column)
                if isAtKey {
                    try readKey(scalar, anchor: anchor, at: location)
                    continue
                }
                try count(1, at: location)
                value = SpecNode(try scalar.value(at: location), at: location)
                if let anchor { anchors[anchor] = .node(value, size: 1, height: 0) }
            case .alias(let name, let line, let column):
                (value, height) = try expand(name, at: sourceLocation(line, column))
            case .collectionStart(let isMapping, let tag, let anchor, let line, let column):
                let location = sourceLocation(line, column)
                if isAtKey {
                    let kind = isMapping ? "a mapping" : "a list"
                    throw SpecError(.typeMismatch, at: location, "expected a string key, found \(kind)")
                }
                try YAMLTag.checkCollection(tag, isMapping: isMapping, at: location)
                try count(1, at: location)
                guard stack.count < limits.maxDepth else { throw limits.depthError(at: location) }
                stack.append(
                    Frame(isMapping: isMapping, location: location, anchor: anchor, countBefore: nodeCount - 1))
                continue
            case .collectionEnd:
                let frame = stack.removeLast()
                value = SpecNode(frame.isMapping ? .mapping(frame.members) : .sequence(frame.items), at: frame.location)
                height = frame.height
                if let anchor = frame.anchor {
                    anchors[anchor] = .node(value, size: nodeCount - frame.countBefore, height: height)
                }
            }
            guard !stack.isEmpty else { return value }
            attach(value, height: height)
        }
    }

    /// Whether the next node is a key: the innermost collection is a mapping waiting for one.
    private var isAtKey: Bool {
        guard let top = stack.indices.last else { return false }
        return stack[top].isMapping && stack[top].key == nil
    }

    private mutating func readKey(
        _ scalar: YAMLScalar, anchor: String?, at location: SourceLocation
    )
        throws(SpecError)
    {
        let key = try scalar.keyString(at: location)
        let top = stack.count - 1
        if let first = stack[top].keyIndex.firstLocation(of: key, in: stack[top].members) {
            throw SpecError(.duplicateKey, at: location, "duplicate key '\(key)' (first at \(first))")
        }
        stack[top].key = (key, location)
        if let anchor { anchors[anchor] = .key(scalar, location) }
    }

    /// The node an alias stands for, and its height, once it is known to fit the limits.
    private mutating func expand(_ name: String, at location: SourceLocation) throws(SpecError) -> (SpecNode, Int) {
        if isAtKey {
            throw SpecError(
                .typeMismatch, at: location,
                "expected a string key, found an alias (aliases cannot be used in mapping keys)")
        }
        switch anchors[name] {
        case nil:
            throw SpecError(.syntax, at: location, "invalid YAML: undefined alias '*\(name)'")
        case .key(let scalar, let keyLocation)?:
            try count(1, at: location)
            return (SpecNode(try scalar.value(at: keyLocation), at: keyLocation), 0)
        case .node(let node, let size, let height)?:
            try count(size, at: location)
            guard stack.count + height <= limits.maxDepth else { throw limits.depthError(at: location) }
            return (node, height)
        }
    }

    /// Hands a finished value to the innermost collection.
    private mutating func attach(_ value: SpecNode, height: Int) {
        let top = stack.count - 1
        stack[top].height = max(stack[top].height, height + 1)
        if let key = stack[top].key {
            stack[top].members.append(SpecNode.Member(key: key.name, keyLocation: key.location, value: value))
            stack[top].key = nil
        } else {
            stack[top].items.append(value)
        }
    }

    /// Counts `values` more against ``ReaderLimits/maxNodes``.
    private mutating func count(_ values: Int, at location: SourceLocation) throws(SpecError) {
        nodeCount += values
        guard nodeCount <= limits.maxNodes else {
            throw SpecError(
                .limitExceeded, at: location,
                "document expands to more than \(limits.maxNodes) nodes (the node limit; a YAML alias bomb?)")
        }
    }

    private func sourceLocation(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(name: source, line: line, column: column)
    }
}
