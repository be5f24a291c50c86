extension Spec {
    /// The spec resolved for every look, with the place of each trait and variable (see
    /// ``SpecInspection``).
    public func inspection() -> SpecInspection {
        let themes = document.themes
        var scopes = [VariableScope(variables: document.variables)]
        for theme in themes {
            // A Spec exists only once every theme overlays cleanly, so this cannot fail here;
            // should it, the look shows the base values rather than nothing.
            let variables =
                (try? ThemeOverlay.apply(theme.overrides, to: document.variables, theme: theme.name))
                ?? document.variables
            scopes.append(VariableScope(variables: variables))
        }
        let looks: [String?] = [nil] + themes.map(\.name)
        let tokens = document.tokens
        let variables = Self.leaves(of: document.variables, tokens: tokens).map { leaf in
            let values = scopes.indices.map { Self.resolve(leaf.node, path: leaf.path, in: &scopes[$0]) }
            let token = tokens[leaf.path].map {
                SpecInspection.Token(
                    type: $0.type?.rawValue, description: $0.description, deprecated: $0.deprecation, value: $0.value)
            }
            return SpecInspection.Variable(
                path: leaf.path, kind: Self.kind(of: values[0]), place: .init(leaf.node.location),
                source: leaf.node, values: values, token: token)
        }
        let identifiers = inspectIdentifiers(looks: looks, scopes: &scopes)
        return SpecInspection(
            looks: looks,
            themes: themes.map { theme in
                SpecInspection.Theme(
                    name: theme.name, place: .init(theme.location),
                    overrides: Self.leaves(of: theme.overrides, tokens: tokens).map {
                        SpecInspection.Override(path: $0.path, place: .init($0.node.location), source: $0.node)
                    })
            },
            variables: variables, identifiers: identifiers, files: document.files)
    }

    private func inspectIdentifiers(looks: [String?], scopes: inout [VariableScope]) -> [SpecInspection.Identifier] {
        var entries: [SourceLocation: (owner: String, node: SpecNode)] = [:]
        for identifier in document.identifiers {
            for entry in identifier.entries { entries[entry.location] = (identifier.name, entry) }
        }
        return document.identifiers.map { identifier in
            let traits = looks.indices.map { look in
                let resolved = resolution(for: looks[look])?.list(for: identifier.name)?.traits ?? []
                return resolved.map { trait in
                    let raw = entries[trait.location]
                    let source = Self.fields(of: raw?.node ?? SpecNode(.mapping([]), at: trait.location))
                    return SpecInspection.TraitEntry(
                        type: trait.typeName, place: .init(trait.location),
                        inheritedFrom: raw.map(\.owner).flatMap { $0 == identifier.name ? nil : $0 },
                        values: Self.resolve(source, path: nil, in: &scopes[look]),
                        source: source,
                        fieldPlaces: Dictionary(
                            (source.members ?? []).map { ($0.key, SpecInspection.Place($0.value.location)) },
                            uniquingKeysWith: { first, _ in first }),
                        references: Self.references(in: source))
                }
            }
            return SpecInspection.Identifier(name: identifier.name, place: .init(identifier.location), traits: traits)
        }
    }

    /// `node` with its references and functions resolved in `scope`; a variable by its path, so
    /// that a theme's override is seen.
    private static func resolve(_ node: SpecNode, path: String?, in scope: inout VariableScope) -> SpecNode {
        do {
            if let path { return try scope.value(of: path, at: node.location) }
            return try scope.substitute(node)
        } catch {
            // Every value of a Spec resolved when it was made; a failure here would be a bug in
            // the resolver, and the value as written is the most useful thing to show then.
            return node
        }
    }

    /// A trait entry's members without `type`.
    private static func fields(of entry: SpecNode) -> SpecNode {
        SpecNode(.mapping((entry.members ?? []).filter { $0.key != "type" }), at: entry.location)
    }

    /// The variables of a `variables` (or theme) mapping: its leaves, where a mapping that
    /// holds insets or a size counts as one value.
    /// The variables' leaves; a design token is one leaf, whatever its value holds.
    static func leaves(
        of node: SpecNode, prefix: String = "", tokens: [String: DesignToken] = [:]
    ) -> [(path: String, node: SpecNode)] {
        guard let members = node.members, !isCompound(node), tokens[prefix] == nil else {
            return prefix.isEmpty ? [] : [(prefix, node)]
        }
        return members.flatMap { member in
            leaves(of: member.value, prefix: prefix.isEmpty ? member.key : prefix + "." + member.key, tokens: tokens)
        }
    }

    private static let insetKeys: Set<String> = ["top", "left", "bottom", "right"]
    private static let sizeKeys: Set<String> = ["width", "height"]

    private static func isCompound(_ node: SpecNode) -> Bool {
        guard let keys = node.members.map({ Set($0.map(\.key)) }), !keys.isEmpty else { return false }
        return keys.isSubset(of: insetKeys) || keys.isSubset(of: sizeKeys)
    }

    static func kind(of value: SpecNode) -> SpecInspection.Kind {
        switch value.value {
        case .int, .double: return .number
        case .bool: return .bool
        case .sequence: return .list
        case .null: return .other
        case .string(let text): return isColor(text) ? .color : .string
        case .mapping(let members):
            let keys = Set(members.map(\.key))
            if !keys.isEmpty, keys.isSubset(of: insetKeys) { return .insets }
            if !keys.isEmpty, keys.isSubset(of: sizeKeys) { return .size }
            return .other
        }
    }

    private static func isColor(_ text: String) -> Bool {
        do {
            _ = try Color(parsing: text)
            return true
        } catch {
            return false
        }
    }

    /// The variable paths `node` names (`@a.b`, also inside `~functions`), first use first.
    static func references(in node: SpecNode) -> [String] {
        var found: [String] = []
        func visit(_ node: SpecNode) {
            switch node.value {
            case .string(let text):
                for path in referencePaths(in: text) where !found.contains(path) { found.append(path) }
            case .sequence(let items): items.forEach(visit)
            case .mapping(let members): members.forEach { visit($0.value) }
            default: break
            }
        }
        visit(node)
        return found
    }

    /// The paths of the `@` references in `text` (`~mix(@brand, @ink, 0.5)`: `brand`, `ink`):
    /// each runs from an `@` over letters, digits, `.`, `_` and `-`.
    private static func referencePaths(in text: String) -> [String] {
        switch VariableScope.lead(of: text) {
        case .reference, .function: break
        case .escaped, .plain: return []
        }
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return unicodeReferencePaths(in: text) }
        // ASCII, as nearly every spec's text is: the same walk over bytes, each a character of
        // its own, costs about a quarter of asking each `Character` whether it is a letter.
        var paths: [String] = []
        var pathStart: String.Index?  // just after the `@` of the path being read
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "@") {
                if let open = pathStart, open < index { paths.append(String(text[open..<index])) }
                pathStart = utf8.index(after: index)
            } else if let open = pathStart, !isPathByte(byte) {
                if open < index { paths.append(String(text[open..<index])) }
                pathStart = nil
            }
            index = utf8.index(after: index)
        }
        if let open = pathStart, open < utf8.endIndex { paths.append(String(text[open...])) }
        return paths
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func unicodeReferencePaths(in text: String) -> [String] {
        var paths: [String] = []
        var current: String?
        for character in text {
            if character == "@" {
                if let path = current, !path.isEmpty { paths.append(path) }
                current = ""
            } else if current != nil, character.isLetter || character.isNumber || "._-".contains(character) {
                current?.append(character)
            } else if let path = current {
                if !path.isEmpty { paths.append(path) }
                current = nil
            }
        }
        if let path = current, !path.isEmpty { paths.append(path) }
        return paths
    }
}
