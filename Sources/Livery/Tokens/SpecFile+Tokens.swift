import Foundation

extension SpecFile {
    /// What a file in a specs folder holds, by its name: a design tokens document
    /// (`*.tokens.json`, `*.tokens`), a resolver document (`*.resolver.json`) or a spec.
    enum Kind {
        case spec
        case tokens
        case resolver
    }

    static func kind(of path: String) -> Kind {
        let name = path.lowercased()
        if name.hasSuffix(".tokens.json") || name.hasSuffix(".tokens") { return .tokens }
        if name.hasSuffix(".resolver.json") { return .resolver }
        return .spec
    }

    /// The file at `path`, parsed from `data` and read by its kind. A resolver read alone (not
    /// in a folder) has no token files to read: its references to them are errors.
    static func read(
        path: String, data: Data, format: SpecFormat, limits: ReaderLimits, errors: inout [SpecError]
    ) throws(SpecError) -> SpecFile {
        let kind = kind(of: path)
        // Only a tokens reader can use the answer: asking is a hash comparison for every key.
        let noted = kind == .tokens ? TokensReader.pointingKeys : []
        let (root, pointsIntoItself) = try SpecReader.read(
            data, format: format, source: path, limits: limits, noting: noted)
        switch kind {
        case .spec:
            return SpecFile(path: path, root: root, errors: &errors)
        case .tokens:
            return SpecFile(tokensAt: path, root: root, pointsIntoItself: pointsIntoItself, errors: &errors)
        case .resolver:
            let resolver = TokenResolver(path: path, root: root, limits: limits) { _ in nil }
            return SpecFile(resolverAt: path, resolver: resolver, errors: &errors)
        }
    }

    /// A design tokens document as a spec file: each token a variable at its path.
    /// `pointsIntoItself`: whether the document may hold a key of ``TokensReader/pointingKeys``.
    init(tokensAt path: String, root: consuming SpecNode, pointsIntoItself: Bool, errors: inout [SpecError]) {
        self.path = path
        let location = root.location
        let reader = TokensReader(root: consume root, pointsIntoItself: pointsIntoItself)
        errors += reader.errors
        self.variables = SpecNode(.mapping(reader.variables), at: location)
        self.tokens = reader.tokens
    }

    /// A token's variable, by the rest of its path.
    struct Entry {
        var path: ArraySlice<String>
        var value: SpecNode
        var key: SourceLocation
    }

    /// The entries as nested mappings, each group built once (not copied again for every token
    /// added to it). The entries come as a walk of a tokens document gives them: paths unique,
    /// and the entries of a group next to one another, so each run of entries with one first
    /// name is one member. A theme of a resolver document nests its overrides so.
    static func nested(_ entries: ArraySlice<Entry>) -> [SpecNode.Member] {
        var members: [SpecNode.Member] = []
        var start = entries.startIndex
        while start < entries.endIndex {
            let first = entries[start]
            let key = first.path.first!
            var end = entries.index(after: start)
            while end < entries.endIndex, entries[end].path.first == key { end = entries.index(after: end) }
            if first.path.count == 1 {
                members.append(SpecNode.Member(key: key, keyLocation: first.key, value: first.value))
            } else {
                let children = entries[start..<end].map {
                    Entry(path: $0.path.dropFirst(), value: $0.value, key: $0.key)
                }
                members.append(
                    SpecNode.Member(
                        key: key, keyLocation: first.key,
                        value: SpecNode(.mapping(nested(children[...])), at: first.key)))
            }
            start = end
        }
        assert(Set(members.map(\.key)).count == members.count, "a group's entries are not next to one another")
        return members
    }
}
