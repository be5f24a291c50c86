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

    /// `variables` (the document's own, or a theme's laid over them) as a tokens document.
    static func document(of document: SpecDocument, variables: SpecNode) -> SpecNode {
        var scope = VariableScope(variables: variables)
        var base = [String: SpecNode]()
        flatten(document.variables, path: [], into: &base)
        return SpecNode(
            .mapping(group(variables.members ?? [], path: [], document: document, base: base, scope: &scope)),
            at: SpecNode.built)
    }

    /// Each leaf of `node` by its dotted path.
    private static func flatten(_ node: SpecNode, path: [String], into leaves: inout [String: SpecNode]) {
        guard let members = node.members, !members.isEmpty else {
            leaves[path.joined(separator: ".")] = node
            return
        }
        for member in members { flatten(member.value, path: path + [member.key], into: &leaves) }
    }

    private static func group(
        _ members: [SpecNode.Member], path: [String], document: SpecDocument, base: [String: SpecNode],
        scope: inout VariableScope
    ) -> [SpecNode.Member] {
        members.map { member in
            let memberPath = path + [member.key]
            let name = memberPath.joined(separator: ".")
            let node: SpecNode
            if let read = document.tokens[name] {
                let overridden = base[name].map { !$0.hasSameContent(as: member.value) } ?? false
                node =
                    overridden
                    ? written(read, value: token(for: member.value, path: memberPath, scope: &scope)) : written(read)
            } else if let children = member.value.members, !children.isEmpty, children.allSatisfy({ isName($0.key) }) {
                node = SpecNode(
                    .mapping(group(children, path: memberPath, document: document, base: base, scope: &scope)),
                    at: member.value.location)
            } else {
                node = token(for: member.value, path: memberPath, scope: &scope)
            }
            return SpecNode.Member(key: member.key, keyLocation: member.keyLocation, value: node)
        }
    }

    /// An imported token, as it was read; with `value` (a token made for a theme's value), that
    /// token's `$value`, and its `$type` and `$extensions` where the token read has none.
    private static func written(_ token: DesignToken, value: SpecNode? = nil) -> SpecNode {
        var fields: [(String, SpecNode)] = [("$value", value?["$value"] ?? token.value)]
        if let type = value?["$type"] ?? token.type.map({ string($0.rawValue) }) { fields.append(("$type", type)) }
        if let description = token.description { fields.append(("$description", string(description))) }
        if let reason = token.deprecation {
            fields.append(("$deprecated", reason.isEmpty ? SpecNode(.bool(true), at: token.location) : string(reason)))
        }
        if let extensions = token.extensions ?? value?["$extensions"] { fields.append(("$extensions", extensions)) }
        return mapping(fields)
    }

    /// A token for a variable that was not read from one.
    private static func token(for value: SpecNode, path: [String], scope: inout VariableScope) -> SpecNode {
        switch value.value {
        case .int, .double:
            return mapping([("$value", value), ("$type", string("number"))])
        case .string(let text):
            switch VariableScope.lead(of: text) {
            case .reference:
                return mapping([("$value", string("{" + text.dropFirst() + "}"))])
            case .function:
                let color = (try? scope.substitute(value))?.string.flatMap { Color(hex: $0) }
                return mapping([
                    ("$value", TokenColor.node(color ?? .clear, at: value.location)), ("$type", string("color")),
                    ("$extensions", mapping([(livery, mapping([("expression", value)]))])),
                ])
            case .escaped:
                return untyped(string(String(text.dropFirst())), kind: "string")
            case .plain:
                if let color = try? Color(parsing: text) {
                    return mapping([("$value", TokenColor.node(color, at: value.location)), ("$type", string("color"))])
                }
                return untyped(string(text), kind: "string")
            }
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
        // On the UTF-8 bytes: the characters a name cannot hold are ASCII.
        var key = key
        return key.withUTF8 { bytes in
            guard let first = bytes.first, first != UInt8(ascii: "$") else { return bytes.elementsEqual("$root".utf8) }
            return !bytes.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: ".") }
        }
    }

    private static func string(_ text: String) -> SpecNode { .text(text) }

    private static func mapping(_ fields: [(String, SpecNode)]) -> SpecNode { .object(fields) }
}
