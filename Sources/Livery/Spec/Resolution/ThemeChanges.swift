/// Which variable reads a theme's overrides can change: a read of an overridden variable, of a
/// mapping holding one or of a value inside one, or of a variable whose own value reads such a
/// path, however indirectly.
struct ThemeChanges {
    /// The overridden variables, as dotted paths to the leaves of the overrides.
    private let overridden: [String]
    private let readsOfVariable: [String: [String]]
    private var memo: [String: Bool] = [:]

    init(overrides: SpecNode, readsOfVariable: [String: [String]]) {
        var leaves: [String] = []
        Self.collectLeaves(overrides, path: nil, into: &leaves)
        self.overridden = leaves
        self.readsOfVariable = readsOfVariable
    }

    /// Whether an entry that read `paths` (directly) can resolve differently under the theme.
    mutating func affect(_ paths: [String]) -> Bool {
        paths.contains { isAffected($0) }
    }

    private mutating func isAffected(_ path: String) -> Bool {
        if let known = memo[path] { return known }
        memo[path] = false  // a reference cycle is an error already; don't recurse forever
        let affected =
            overridden.contains { Self.overlap(path, $0) } || (readsOfVariable[path] ?? []).contains { isAffected($0) }
        memo[path] = affected
        return affected
    }

    /// `colors` overlaps `colors.accent` and the reverse: one holds the other.
    private static func overlap(_ read: String, _ override: String) -> Bool {
        read == override || read.hasPrefix(override + ".") || override.hasPrefix(read + ".")
    }

    private static func collectLeaves(_ node: SpecNode, path: String?, into leaves: inout [String]) {
        guard let members = node.members, !members.isEmpty else {
            if let path { leaves.append(path) }
            return
        }
        for member in members {
            collectLeaves(member.value, path: path.map { "\($0).\(member.key)" } ?? member.key, into: &leaves)
        }
    }
}
