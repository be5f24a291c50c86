/// Merges spec files into a ``SpecDocument``. A name defined in two places (an identifier, a
/// variable, one theme's override of a variable) is an error that names both.
struct DocumentMerger {
    private var variables: [SpecNode.Member] = []
    private var variablesLocation: SourceLocation?
    private var themes: [(name: String, location: SourceLocation, overrides: [SpecNode.Member])] = []
    private var identifiers: [SpecDocument.Identifier] = []
    private var identifierIndex: [String: Int] = [:]
    private var files: [String] = []
    private var tokens: [String: DesignToken] = [:]
    private var referringTokens: [DesignToken] = []
    private var replacedToken = false

    mutating func add(_ file: SpecFile, errors: inout [SpecError]) {
        files.append(file.path)
        tokens.reserveCapacity(tokens.count + file.tokens.count)
        for token in file.tokens {
            // Each token's block is read here anyway, for its name: noting the tokens that refer
            // now spares the checks a second, cold read of all of them.
            if tokens.updateValue(token, forKey: token.name) != nil { replacedToken = true }
            if token.holdsReference { referringTokens.append(token) }
        }
        if let node = file.variables, let members = node.members {
            variablesLocation = variablesLocation ?? node.location
            Self.merge(members, into: &variables, path: [], describe: { "variable '\($0)'" }, errors: &errors)
        }
        for theme in file.themes {
            let members = theme.overrides.members ?? []
            if let index = themes.firstIndex(where: { $0.name == theme.name }) {
                Self.merge(
                    members, into: &themes[index].overrides, path: [],
                    describe: { "override of '\($0)' in theme '\(theme.name)'" }, errors: &errors)
            } else {
                var merged: [SpecNode.Member] = []
                Self.merge(
                    members, into: &merged, path: [], describe: { "override of '\($0)' in theme '\(theme.name)'" },
                    errors: &errors)
                themes.append((theme.name, theme.location, merged))
            }
        }
        for identifier in file.identifiers {
            if let index = identifierIndex[identifier.name] {
                errors.append(
                    SpecError(
                        .duplicateDefinition, at: identifier.location,
                        "duplicate identifier '\(identifier.name)' (first defined at \(place: identifiers[index].location))"
                    ))
                continue
            }
            identifierIndex[identifier.name] = identifiers.count
            identifiers.append(.init(name: identifier.name, location: identifier.location, entries: identifier.entries))
        }
    }

    var document: SpecDocument {
        let here = variablesLocation ?? .start(of: files.first ?? "<empty>")
        return SpecDocument(
            variables: SpecNode(.mapping(variables), at: here),
            themes: themes.map { ($0.name, $0.location, SpecNode(.mapping($0.overrides), at: $0.location)) },
            identifiers: identifiers,
            files: files,
            tokens: tokens,
            // A name defined twice keeps the later token: only the table says which refer then.
            referringTokens: replacedToken ? tokens.values.filter(\.holdsReference) : referringTokens)
    }

    /// Deep-merges mappings; two definitions of one leaf are an error.
    private static func merge(
        _ members: [SpecNode.Member], into target: inout [SpecNode.Member], path: [String],
        describe: (String) -> String,
        errors: inout [SpecError]
    ) {
        for member in members {
            let memberPath = path + [member.key]
            guard let index = target.firstIndex(where: { $0.key == member.key }) else {
                target.append(member)
                continue
            }
            if case .mapping(var existing) = target[index].value.value, let incoming = member.value.members {
                merge(incoming, into: &existing, path: memberPath, describe: describe, errors: &errors)
                target[index].value.value = .mapping(existing)
            } else {
                errors.append(
                    SpecError(
                        .duplicateDefinition, at: member.keyLocation,
                        "duplicate \(describe(memberPath.joined(separator: "."))) (first defined at \(place: target[index].keyLocation))"
                    ))
            }
        }
    }
}
