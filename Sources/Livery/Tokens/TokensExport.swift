/// Writes a spec's variables as one design tokens document (Format Module 2025.10).
///
/// A variable read from a token is written back as that token: its `$value` as written (aliases
/// kept as `{…}`), `$type`, `$description`, `$deprecated` and `$extensions`. Any other variable is
/// typed by its kind where the format has a type for it: a colour string is a `color` token (in
/// `srgb`, with its hex fallback), a number a `number` token, a reference `@a.b` an alias
/// `{a.b}`, and a mapping whose keys can be token names a group. A colour function `~…` is a
/// `color` token of its value under the base variables, the function kept in
/// ``livery`` extensions. A value the format has no type for (other strings, booleans, null,
/// lists, mappings whose keys cannot be names) is written with its kind in the ``livery``
/// extension (`{"type": "string"}`) and no `$type`: Livery reads it back, other tools report it
/// as untyped, which the format requires rather than a guess.
enum TokensExport {
    /// The extension key Livery writes: `$extensions["dev.livery"]`.
    static let livery = "dev.livery"

    static func document(of document: SpecDocument) -> SpecNode {
        var scope = VariableScope(variables: document.variables)
        return SpecNode(
            .mapping(group(document.variables.members ?? [], path: [], document: document, scope: &scope)),
            at: SpecNode.built)
    }

    private static func group(
        _ members: [SpecNode.Member], path: [String], document: SpecDocument, scope: inout VariableScope
    ) -> [SpecNode.Member] {
        members.map { member in
            let memberPath = path + [member.key]
            let node: SpecNode
            if let token = document.tokens[memberPath.joined(separator: ".")] {
                node = written(token)
            } else if let children = member.value.members, !children.isEmpty, children.allSatisfy({ isName($0.key) }) {
                node = SpecNode(
                    .mapping(group(children, path: memberPath, document: document, scope: &scope)),
                    at: member.value.location)
            } else {
                node = token(for: member.value, path: memberPath, scope: &scope)
            }
            return SpecNode.Member(key: member.key, keyLocation: member.keyLocation, value: node)
        }
    }

    /// An imported token, as it was read.
    private static func written(_ token: DesignToken) -> SpecNode {
        var fields: [(String, SpecNode)] = [("$value", token.value)]
        if let type = token.type { fields.append(("$type", string(type.rawValue))) }
        if let description = token.description { fields.append(("$description", string(description))) }
        if let reason = token.deprecation {
            fields.append(("$deprecated", reason.isEmpty ? SpecNode(.bool(true), at: token.location) : string(reason)))
        }
        if let extensions = token.extensions { fields.append(("$extensions", extensions)) }
        return mapping(fields)
    }

    /// A token for a variable that was not read from one.
    private static func token(for value: SpecNode, path: [String], scope: inout VariableScope) -> SpecNode {
        switch value.value {
        case .int, .double:
            return mapping([("$value", value), ("$type", string("number"))])
        case .string(let text) where text.hasPrefix("@") && !text.hasPrefix("@@"):
            return mapping([("$value", string("{" + text.dropFirst() + "}"))])
        case .string(let text) where text.hasPrefix("~") && !text.hasPrefix("~~"):
            let color = (try? scope.substitute(value))?.string.flatMap { Color(hex: $0) }
            return mapping([
                ("$value", TokenColor.node(color ?? .clear, at: value.location)), ("$type", string("color")),
                ("$extensions", mapping([(livery, mapping([("expression", value)]))])),
            ])
        case .string(let text):
            if !text.hasPrefix("@@"), !text.hasPrefix("~~"), let color = try? Color(parsing: text) {
                return mapping([("$value", TokenColor.node(color, at: value.location)), ("$type", string("color"))])
            }
            let literal = text.hasPrefix("@@") || text.hasPrefix("~~") ? String(text.dropFirst()) : text
            return untyped(string(literal), kind: "string")
        case .bool: return untyped(value, kind: "boolean")
        case .null: return untyped(value, kind: "null")
        case .sequence: return untyped(value, kind: "list")
        case .mapping: return untyped(value, kind: "mapping")
        }
    }

    private static func untyped(_ value: SpecNode, kind: String) -> SpecNode {
        mapping([("$value", value), ("$extensions", mapping([(livery, mapping([("type", string(kind))]))]))])
    }

    /// Whether `key` can name a token or a group.
    static func isName(_ key: String) -> Bool {
        !key.isEmpty && !key.hasPrefix("$") && !key.contains(where: { $0 == "{" || $0 == "}" || $0 == "." })
            || key == "$root"
    }

    private static func string(_ text: String) -> SpecNode { .text(text) }

    private static func mapping(_ fields: [(String, SpecNode)]) -> SpecNode { .object(fields) }
}
