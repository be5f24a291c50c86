import Yams

/// Turns a composed Yams tree into ``SpecNode``s: types scalars by the YAML 1.2 core schema
/// (``YAMLConverter/value(of:at:)``), turns keys into strings, refuses duplicate keys, and
/// expands aliases while counting every value against ``ReaderLimits/maxNodes``.
///
/// An alias expands to a copy of its anchored node, and the copy keeps the anchored node's
/// locations: Yams resolves aliases while composing and does not record where they were used.
///
/// It walks the tree with an explicit stack rather than recursion, because alias expansion can
/// nest a tree deeper than its text (an alias to a deep list inside a deep list), and because the
/// exact depth limit is enforced here, on the real tree.
struct YAMLConverter {
    /// A list or mapping being converted, with its converted children so far.
    private struct Frame {
        var sequence: Node.Sequence?
        var mapping: Node.Mapping?
        var location: SourceLocation
        var next = 0
        var items: [SpecNode] = []
        var members: [SpecNode.Member] = []
        var key = ""
        var keyLocation: SourceLocation
        /// Member index by key, built once a mapping is large enough for hashing to pay.
        var keyIndex = MemberIndex()

        var count: Int { sequence?.count ?? mapping?.count ?? 0 }
    }

    let source: String
    let limits: ReaderLimits
    /// Tags the reader put before keys to find where they repeat: a key with one reads as a
    /// plain string, and places are given in the text without them.
    let markers: YAMLKeyMarkers?
    private var nodeCount = 0

    init(source: String, limits: ReaderLimits, markers: YAMLKeyMarkers? = nil) {
        self.source = source
        self.limits = limits
        self.markers = markers
    }

    /// Converts `root` and everything under it.
    mutating func convert(_ root: Node) throws(SpecError) -> SpecNode {
        var stack: [Frame] = []
        var pending = root
        while true {
            guard var value = try open(pending, into: &stack) else {
                pending = try nextChild(of: &stack[stack.count - 1])
                continue
            }
            // Attach the value to its parent, and close every parent that is now complete.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                if stack[top].mapping != nil {
                    let member = SpecNode.Member(key: stack[top].key, keyLocation: stack[top].keyLocation, value: value)
                    stack[top].members.append(member)
                } else {
                    stack[top].items.append(value)
                }
                if stack[top].next < stack[top].count {
                    pending = try nextChild(of: &stack[top])
                    break
                }
                let frame = stack.removeLast()
                value = SpecNode(frame.mapping == nil ? .sequence(frame.items) : .mapping(frame.members), at: frame.location)
            }
        }
    }

    /// Converts a scalar or an empty collection at once; pushes a frame for any other collection
    /// and returns `nil`.
    private mutating func open(_ node: Node, into stack: inout [Frame]) throws(SpecError) -> SpecNode? {
        let location = location(of: node)
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else {
            throw SpecError(.limitExceeded, at: location, Self.nodeLimitMessage(limits))
        }
        switch node {
        case .scalar(let scalar):
            return SpecNode(try value(of: scalar, at: location), at: location)
        case .alias:
            // Yams resolves aliases while composing; a bare alias node would be a Yams change.
            throw SpecError(.syntax, at: location, "invalid YAML: unresolved alias")
        case .sequence(let sequence):
            try checkCollectionTag(sequence.tag, allowed: "tag:yaml.org,2002:seq", kind: "a list", at: location)
            try checkDepth(stack.count + 1, at: location)
            guard !sequence.isEmpty else { return SpecNode(.sequence([]), at: location) }
            stack.append(Frame(sequence: sequence, location: location, keyLocation: location))
        case .mapping(let mapping):
            try checkCollectionTag(mapping.tag, allowed: "tag:yaml.org,2002:map", kind: "a mapping", at: location)
            try checkDepth(stack.count + 1, at: location)
            guard !mapping.isEmpty else { return SpecNode(.mapping([]), at: location) }
            stack.append(Frame(mapping: mapping, location: location, keyLocation: location))
        }
        return nil
    }

    /// The next child of `frame` to convert; for a mapping, reads its key first.
    private func nextChild(of frame: inout Frame) throws(SpecError) -> Node {
        let index = frame.next
        frame.next += 1
        if let sequence = frame.sequence {
            return sequence[index]
        }
        guard let mapping = frame.mapping else { return .scalar(.init("")) }
        let pair = mapping[index]
        let keyLocation = location(of: pair.key)
        let key = try keyString(pair.key, at: keyLocation)
        if let first = firstLocation(of: key, in: &frame) {
            throw SpecError(.duplicateKey, at: keyLocation, "duplicate key '\(key)' (first at \(first))")
        }
        frame.key = key
        frame.keyLocation = keyLocation
        return pair.value
    }

    private func firstLocation(of key: String, in frame: inout Frame) -> SourceLocation? {
        frame.keyIndex.firstLocation(of: key, in: frame.members)
    }

    private func checkDepth(_ depth: Int, at location: SourceLocation) throws(SpecError) {
        guard depth <= limits.maxDepth else {
            throw SpecError(
                .limitExceeded, at: location, "document nests deeper than \(limits.maxDepth) levels (the depth limit)")
        }
    }

    private func checkCollectionTag(_ tag: Tag, allowed: String, kind: String, at location: SourceLocation)
        throws(SpecError)
    {
        let name = tag.description
        guard name.isEmpty || name == allowed || name == "!" else {
            let known = ["str", "int", "float", "bool", "null", "seq", "map"].map { "tag:yaml.org,2002:" + $0 }
            let message = known.contains(name)
                ? "tag '\(Self.displayName(ofTag: name))' cannot be used on \(kind)" : Self.unsupportedTagMessage(name)
            throw SpecError(.invalidValue, at: location, message)
        }
    }

    static func unsupportedTagMessage(_ name: String) -> String {
        "unsupported tag '\(displayName(ofTag: name))'; only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed"
    }

    /// `!!int` for `tag:yaml.org,2002:int`, as the user most likely wrote it.
    static func displayName(ofTag name: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return name.hasPrefix(prefix) ? "!!" + name.dropFirst(prefix.count) : name
    }

    /// The message when a document expands past ``ReaderLimits/maxNodes``.
    static func nodeLimitMessage(_ limits: ReaderLimits) -> String {
        "document expands to more than \(limits.maxNodes) nodes (the node limit; a YAML alias bomb?)"
    }

    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return .start(of: source) }
        let column = markers?.originalColumn(line: mark.line, column: mark.column) ?? mark.column
        return SourceLocation(file: source, line: mark.line, column: column)
    }
}
