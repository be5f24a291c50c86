/// One spec file's sections, checked for shape but not yet merged or resolved.
struct SpecFile {
    struct Include {
        var path: String
        var location: SourceLocation
    }

    struct Theme {
        var name: String
        var location: SourceLocation
        var overrides: SpecNode
    }

    struct Identifier {
        var name: String
        var location: SourceLocation
        var entries: [SpecNode]
    }

    static let sections = ["$schema", "include", "variables", "themes", "specs"]

    var path: String
    var includes: [Include] = []
    var variables: SpecNode?
    var themes: [Theme] = []
    var identifiers: [Identifier] = []
    /// The design tokens the file defines, when it is a tokens document.
    var tokens: [DesignToken] = []

    /// Reads the sections of a parsed document, reporting every shape error it finds.
    init(path: String, root: SpecNode, errors: inout [SpecError]) {
        self.path = path
        guard let members = root.members else {
            errors.append(
                SpecError(
                    .typeMismatch, at: root.location,
                    "expected a mapping with 'specs' (and optionally 'variables', 'themes', 'include'), found \(root.foundDescription)"
                ))
            return
        }
        for member in members {
            switch member.key {
            case "$schema":
                if member.value.string == nil {
                    errors.append(Self.mismatch(member.value, expected: "a string"))
                }
            case "include": readIncludes(member.value, errors: &errors)
            case "variables":
                if member.value.members == nil {
                    errors.append(Self.mismatch(member.value, expected: "a mapping of variables"))
                } else {
                    variables = member.value
                }
            case "themes": readThemes(member.value, errors: &errors)
            case "specs": readSpecs(member.value, errors: &errors)
            default:
                let hint =
                    Suggestion.closest(to: member.key, in: Self.sections).map { "did you mean '\($0)'?" }
                    ?? "expected 'specs', 'variables', 'themes' or 'include'"
                errors.append(
                    SpecError(.unknownKey, at: member.keyLocation, "unknown top-level key '\(member.key)'; \(hint)"))
            }
        }
    }

    private mutating func readIncludes(_ node: SpecNode, errors: inout [SpecError]) {
        let items: [SpecNode]
        switch node.value {
        case .string: items = [node]
        case .sequence(let list): items = list
        default:
            errors.append(Self.mismatch(node, expected: "a file name or a list of file names"))
            return
        }
        for item in items {
            guard let path = item.string else {
                errors.append(Self.mismatch(item, expected: "a file name"))
                continue
            }
            includes.append(Include(path: path, location: item.location))
        }
    }

    private mutating func readThemes(_ node: SpecNode, errors: inout [SpecError]) {
        guard let members = node.members else {
            errors.append(Self.mismatch(node, expected: "a mapping of theme names to variable overrides"))
            return
        }
        for member in members {
            guard member.value.members != nil else {
                errors.append(Self.mismatch(member.value, expected: "a mapping of variable overrides"))
                continue
            }
            themes.append(Theme(name: member.key, location: member.keyLocation, overrides: member.value))
        }
    }

    private mutating func readSpecs(_ node: SpecNode, errors: inout [SpecError]) {
        guard let members = node.members else {
            errors.append(Self.mismatch(node, expected: "a mapping of identifiers to trait lists"))
            return
        }
        for member in members {
            let entries: [SpecNode]
            switch member.value.value {
            case .sequence(let list): entries = list
            case .null: entries = []  // `card:` with nothing after it: no traits
            default:
                errors.append(Self.mismatch(member.value, expected: "a list of traits"))
                continue
            }
            if member.key.isEmpty {
                errors.append(SpecError(.invalidValue, at: member.keyLocation, "an identifier cannot be empty"))
                continue
            }
            identifiers.append(Identifier(name: member.key, location: member.keyLocation, entries: entries))
        }
    }

    static func mismatch(_ node: SpecNode, expected: String) -> SpecError {
        SpecError(.typeMismatch, at: node.location, "expected \(expected), found \(node.foundDescription)")
    }
}
