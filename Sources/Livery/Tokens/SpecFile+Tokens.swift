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

    /// The file at `path`, read by its kind. A resolver read alone (not in a folder) has no
    /// token files to read: its references to them are errors.
    static func read(path: String, root: SpecNode, errors: inout [SpecError]) -> SpecFile {
        switch kind(of: path) {
        case .spec:
            return SpecFile(path: path, root: root, errors: &errors)
        case .tokens:
            return SpecFile(tokensAt: path, root: root, errors: &errors)
        case .resolver:
            let resolver = TokenResolver(path: path, root: root, limits: .default) { _ in nil }
            return SpecFile(resolverAt: path, resolver: resolver, errors: &errors)
        }
    }

    /// A design tokens document as a spec file: each token a variable at its path.
    init(tokensAt path: String, root: SpecNode, errors: inout [SpecError]) {
        self.path = path
        let reader = TokensReader(root: root)
        errors += reader.errors
        let (variables, tokens) = Self.variables(of: reader.tokens, at: root.location, errors: &errors)
        self.variables = variables
        self.tokens = tokens
    }

    /// The tokens converted to variables, nested by their paths, and the tokens that converted.
    static func variables(
        of tokens: [DesignToken], at location: SourceLocation, errors: inout [SpecError]
    ) -> (SpecNode, [DesignToken]) {
        var root: [SpecNode.Member] = []
        var kept: [DesignToken] = []
        for token in tokens {
            let converted: SpecNode
            do throws(SpecError) {
                converted = try TokenValue.variable(of: token)
            } catch {
                errors.append(error)
                continue
            }
            insert(converted, at: token.path[...], keyLocation: token.keyLocation, into: &root)
            kept.append(token)
        }
        return (SpecNode(.mapping(root), at: location), kept)
    }

    static func insert(
        _ value: SpecNode, at path: ArraySlice<String>, keyLocation: SourceLocation,
        into members: inout [SpecNode.Member]
    ) {
        let key = path.first!
        guard path.count > 1 else {
            members.append(SpecNode.Member(key: key, keyLocation: keyLocation, value: value))
            return
        }
        if let index = members.firstIndex(where: { $0.key == key }), var inner = members[index].value.members {
            insert(value, at: path.dropFirst(), keyLocation: keyLocation, into: &inner)
            members[index].value.value = .mapping(inner)
        } else {
            var inner: [SpecNode.Member] = []
            insert(value, at: path.dropFirst(), keyLocation: keyLocation, into: &inner)
            members.append(
                SpecNode.Member(key: key, keyLocation: keyLocation, value: SpecNode(.mapping(inner), at: keyLocation)))
        }
    }
}
