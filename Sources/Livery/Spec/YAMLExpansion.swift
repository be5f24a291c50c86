import Yams

/// Finds, before any conversion, whether a composed YAML tree expands past the node limit, and
/// where the converter would have stopped.
///
/// Yams shares an alias's anchored node instead of copying it, so a 500-byte "billion laughs"
/// composes quickly; it is expanding it node by node that costs. The converter stops at the
/// limit, but only after building a million nodes, seconds of work for every such push. Here each
/// anchored node is measured once (memoised by its `Anchor` object, which the node and every
/// alias copy share while the parser lives), so the verdict costs about the size of the text.
struct YAMLExpansion {
    private let limit: Int
    private let maxDepth: Int
    private var sizes: [ObjectIdentifier: Int] = [:]

    /// The place the converter would report, when `root` expands to more than `limits.maxNodes`
    /// values; `nil` when it does not, or when it nests past the depth limit (which the converter
    /// then reports itself, before it counts that far).
    ///
    /// - Parameter owner: The parser that composed `root`; it owns the anchors, so it must be
    ///   alive while this runs (anchors are held weakly by the nodes).
    static func overflow(of root: Node, limits: ReaderLimits, owner: AnyObject) -> Mark? {
        withExtendedLifetime(owner) {
            var expansion = YAMLExpansion(limit: limits.maxNodes, maxDepth: limits.maxDepth)
            guard let total = expansion.size(of: root, depth: 0), total > limits.maxNodes else { return nil }
            var counted = 0
            return expansion.nodeWhereCountPasses(in: root, counted: &counted)
        }
    }

    private init(limit: Int, maxDepth: Int) {
        self.limit = limit
        self.maxDepth = maxDepth
    }

    /// The values `node` expands to, itself included (mapping keys are not counted, as in the
    /// converter), saturating just past the limit; `nil` past the depth limit.
    private mutating func size(of node: Node, depth: Int) -> Int? {
        guard depth <= maxDepth + 1 else { return nil }
        if let anchor = node.anchor, let known = sizes[ObjectIdentifier(anchor)] { return known }
        var total = 1
        for child in Self.children(of: node) {
            guard let size = size(of: child, depth: depth + 1) else { return nil }
            total = min(total + size, limit + 1)
        }
        if let anchor = node.anchor { sizes[ObjectIdentifier(anchor)] = total }
        return total
    }

    /// Walks in the converter's order (depth first, values in order), skipping whole subtrees
    /// that fit, to the node that is value number `limit + 1`.
    private mutating func nodeWhereCountPasses(in node: Node, counted: inout Int) -> Mark? {
        counted += 1
        if counted > limit { return node.mark }
        for child in Self.children(of: node) {
            // Sizes below the root are all known (memoised or cheap to recompute): the first pass
            // went through every one of them without giving up.
            let size = self.size(of: child, depth: 0) ?? limit + 1
            if counted + size <= limit {
                counted += size
            } else {
                return nodeWhereCountPasses(in: child, counted: &counted)
            }
        }
        return nil
    }

    private static func children(of node: Node) -> [Node] {
        switch node {
        case .sequence(let sequence): Array(sequence)
        case .mapping(let mapping): mapping.map(\.value)
        case .scalar, .alias: []
        }
    }
}
