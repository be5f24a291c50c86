/// Reads a design tokens document (Format Module 2025.10) into its tokens and the variables
/// they make: groups walked with `$type` and `$deprecated` inherited from the nearest group,
/// `$extends` merged, `$ref` JSON Pointers expanded, every name checked, each token converted
/// (``TokenValue``) where it is read, so its variable sits in its group's mapping as the walk
/// leaves it. Reports every error it finds, each located, in document order.
///
/// A document without `$ref` or `$extends` is read by moving each group's members and each
/// token's value out of the tree, so every part of it is freed as soon as it has been read,
/// while it is still in the cache, rather than all at once after a walk of a few megabytes.
/// One with them is kept whole: their pointers may lead anywhere in it.
struct TokensReader {
    /// The keys that point into the document: where it may hold one, the reader keeps it whole.
    static let pointingKeys = ["$ref", "$extends"]
    /// The document, where it may hold a key of ``pointingKeys``; otherwise an empty mapping, the
    /// document being taken apart as it is read.
    private let root: SpecNode
    private let keepsDocument: Bool
    private var pointers = JSONPointerResolver()
    /// The tokens that converted, in document order.
    private(set) var tokens: [DesignToken] = []
    /// The variables of those tokens, nested by their groups (a group none of whose tokens
    /// converted has none).
    private(set) var variables: [SpecNode.Member] = []
    private(set) var errors: [SpecError] = []

    /// Reads `root`, a parsed tokens document; `pointsIntoItself` says whether it may hold a key of
    /// ``pointingKeys`` (``SpecReader`` notes them as it reads).
    init(root: consuming SpecNode, pointsIntoItself: Bool) {
        keepsDocument = pointsIntoItself
        self.root = pointsIntoItself ? copy root : SpecNode(.mapping([]), at: root.location)
        guard root.members != nil else {
            errors.append(
                SpecError(
                    .typeMismatch, at: root.location,
                    "expected a design tokens document (an object of groups and tokens), found \(root.foundDescription)"
                ))
            return
        }
        variables = walkGroup(consume root, name: "", type: nil, deprecation: nil, extending: [])
    }

    /// The value of `members[index]`: moved out of the document unless the reader keeps it whole.
    private func take(_ index: Int, of members: inout [SpecNode.Member]) -> SpecNode {
        keepsDocument ? members[index].value : members[index].value.take()
    }

    /// Reads a group's tokens and subgroups; returns their variables. `name` is the group's
    /// path dotted, empty for the document.
    private mutating func walkGroup(
        _ group: consuming SpecNode, name: String, type: TokenType?, deprecation: String?, extending: [String]
    ) -> [SpecNode.Member] {
        var members = group.takeMembers() ?? []
        var type = type, deprecation = deprecation
        if let extends = members.first(where: { $0.key == "$extends" }) {
            members = Self.merged(
                inherited: extendedMembers(extends.value, from: name, extending: extending), local: members)
        }
        // By index, each field read in place: a loop over the members copies each whole.
        for index in members.indices where Self.isProperty(members[index].key) {
            let key = members[index].key
            switch key {
            case "$type": type = readType(members[index].value) ?? type
            case "$deprecated": deprecation = readDeprecation(members[index].value, inherited: deprecation)
            case "$description": requireString(members[index].value, "a description")
            case "$extensions": requireMapping(members[index].value)
            case "$extends", "$schema", "$defs": break
            default:
                errors.append(
                    SpecError(
                        .unknownKey, at: members[index].keyLocation,
                        "unknown group property '\(key)'; names starting with '$' are the format's own"))
            }
        }
        var variables: [SpecNode.Member] = []
        variables.reserveCapacity(members.count)
        // Made once a group: each child's name is then one append.
        let prefix = name.isEmpty ? "" : name + "."
        for index in members.indices where !Self.isProperty(members[index].key) {
            let key = members[index].key, keyLocation = members[index].keyLocation
            guard checkName(key, at: keyLocation) else { continue }
            var node = take(index, of: &members)
            if node.members?.contains(where: { JSONPointerResolver.isReference($0.key) }) == true {
                // A reference that cannot be read is its own error; what it stood for is not read.
                let known = errors.count
                node = expandTokenReference(node)
                guard errors.count == known else { continue }
            }
            guard let isToken = node.members?.contains(where: { $0.key == "$value" }) else {
                errors.append(
                    SpecError(
                        .typeMismatch, at: node.location,
                        "expected a token (an object with '$value') or a group, found \(node.foundDescription)"))
                continue
            }
            let childName = prefix + key
            if isToken {
                if let variable = readToken(
                    consume node, keyLocation: keyLocation, name: childName, type: type, deprecation: deprecation)
                {
                    variables.append(SpecNode.Member(key: key, keyLocation: keyLocation, value: variable))
                }
            } else if key == "$root" {
                errors.append(SpecError(.missingKey, at: node.location, "'$root' must be a token: it has no '$value'"))
            } else {
                let nested = walkGroup(
                    consume node, name: childName, type: type, deprecation: deprecation, extending: extending)
                if !nested.isEmpty {
                    variables.append(
                        SpecNode.Member(
                            key: key, keyLocation: keyLocation, value: SpecNode(.mapping(nested), at: keyLocation)))
                }
            }
        }
        return variables
    }

    /// Reads a token and converts it; returns its variable, or nil after recording why it has none.
    private mutating func readToken(
        _ node: consuming SpecNode, keyLocation: SourceLocation, name: String, type inherited: TokenType?,
        deprecation: String?
    ) -> SpecNode? {
        var type = inherited, deprecation = deprecation
        var description: String?, extensions: SpecNode?
        var value = SpecNode(.null, at: node.location)
        // Walked once for its references; again only where a `$ref` was expanded.
        var references: ValueReferences?
        var members = node.takeMembers() ?? []
        for index in members.indices {
            let property = members[index].key
            switch property {
            case "$value":
                value = take(index, of: &members)
                references = ValueReferences(of: value)
                guard references?.contains(.pointer) == true else { break }
                let known = errors.count
                value = pointers.expandValues(value, in: root, errors: &errors)
                // A reference that cannot be read is its own error; the token is not read further.
                guard errors.count == known else { return nil }
                references = ValueReferences(of: value)
            case "$type":
                // A bad type is its own error; the token is not read further.
                guard let declared = readType(members[index].value) else { return nil }
                type = declared
            case "$deprecated": deprecation = readDeprecation(members[index].value, inherited: deprecation)
            case "$description": description = requireString(members[index].value, "a description")
            case "$extensions": extensions = requireMapping(take(index, of: &members))
            case "$ref": break
            default:
                let what =
                    property.hasPrefix("$") ? "unknown token property" : "a token cannot hold groups or tokens:"
                errors.append(SpecError(.unknownKey, at: members[index].keyLocation, "\(what) '\(property)'"))
            }
        }
        let liveryKind = extensions?[TokensExport.livery]?["type"]
        if type == nil, TokenValue.referencePath(value) == nil, liveryKind == nil {
            errors.append(
                SpecError(
                    .missingKey, at: value.location,
                    "token '\(name)' has no $type and no group above it has one; the format forbids guessing a type"
                ))
            return nil
        }
        let token = DesignToken(
            name: name, type: type, value: value,
            references: references ?? ValueReferences(of: value), description: description,
            deprecation: deprecation, extensions: extensions, keyLocation: keyLocation)
        do throws(SpecError) {
            let variable = try TokenValue.variable(of: token)
            tokens.append(token)
            return variable
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// A `$ref` in a token's or group's place: the target, with the object's own members laid
    /// over it. A pointer into a value (through a `$value`) makes a token of that value.
    private mutating func expandTokenReference(_ node: SpecNode) -> SpecNode {
        guard let members = node.members,
            let reference = members.first(where: { JSONPointerResolver.isReference($0.key) })
        else {
            return node
        }
        guard let target = pointers.target(of: reference.value, in: root, errors: &errors) else { return node }
        let local = members.filter { !JSONPointerResolver.isReference($0.key) }
        if pointers.pointsIntoValue(reference.value) {
            let value = SpecNode.Member(
                key: "$value", keyLocation: reference.keyLocation,
                value: SpecNode(target.value, at: reference.value.location))
            return SpecNode(.mapping([value] + local), at: node.location)
        }
        guard let targetMembers = target.members else { return target }
        return SpecNode(.mapping(Self.merged(inherited: targetMembers, local: local)), at: node.location)
    }

    /// The members of the group `$extends` names, themselves extended; a cycle is an error.
    /// `here` is the extending group's dotted path.
    private mutating func extendedMembers(
        _ node: SpecNode, from here: String, extending: [String]
    ) -> [SpecNode.Member] {
        guard let targetPath = TokenValue.referencePath(node) else {
            errors.append(
                SpecError(
                    .invalidValue, at: node.location,
                    "expected '$extends' as a group reference {group}, found \(node.foundDescription)"))
            return []
        }
        if extending.contains(targetPath) || targetPath == here || here.hasPrefix(targetPath + ".") {
            errors.append(
                SpecError(
                    .cycle, at: node.location,
                    "group extension cycle: \((extending + [here, targetPath]).filter { !$0.isEmpty }.joined(separator: " → "))"
                ))
            return []
        }
        var target = root
        for part in targetPath.split(separator: ".") {
            guard let next = target[String(part)] else {
                errors.append(
                    SpecError(.unresolvedReference, at: node.location, "'$extends' names no group '\(targetPath)'"))
                return []
            }
            target = next
        }
        guard let members = target.members, target["$value"] == nil else {
            errors.append(
                SpecError(.invalidValue, at: node.location, "'$extends' must name a group; '\(targetPath)' is a token"))
            return []
        }
        if let further = members.first(where: { $0.key == "$extends" }) {
            let inherited = extendedMembers(
                further.value, from: targetPath, extending: extending + [here])
            return Self.merged(inherited: inherited, local: members.filter { $0.key != "$extends" })
        }
        return members
    }

    /// `inherited` with `local` laid over it: groups merge deeply, a token replaces a token whole.
    static func merged(inherited: [SpecNode.Member], local: [SpecNode.Member]) -> [SpecNode.Member] {
        var result = inherited
        for member in local where member.key != "$extends" {
            guard let index = result.firstIndex(where: { $0.key == member.key }) else {
                result.append(member)
                continue
            }
            if let old = result[index].value.members, let new = member.value.members,
                old.contains(where: { $0.key == "$value" }) == false,
                new.contains(where: { $0.key == "$value" }) == false
            {
                result[index].value = SpecNode(
                    .mapping(Self.merged(inherited: old, local: new)), at: member.value.location)
            } else {
                result[index] = member
            }
        }
        return result
    }

    /// Whether a group's member is one of the format's properties (`$type`, …) rather than a
    /// token or group: `$root` is a token. On the first byte: `$` is ASCII.
    private static func isProperty(_ key: String) -> Bool {
        key.utf8.first == UInt8(ascii: "$") && key != "$root"
    }

    private mutating func checkName(_ key: String, at keyLocation: SourceLocation) -> Bool {
        guard !TokensExport.isName(key) else { return true }
        errors.append(
            SpecError(
                .invalidValue, at: keyLocation,
                "'\(key)' is not a token or group name: names cannot be empty or hold '{', '}' or '.'"))
        return false
    }

    private mutating func readType(_ node: SpecNode) -> TokenType? {
        guard let name = node.string else {
            errors.append(
                SpecError(.typeMismatch, at: node.location, "expected a type name, found \(node.foundDescription)"))
            return nil
        }
        guard let type = TokenType(rawValue: name) else {
            let hint =
                Suggestion.closest(to: name, in: TokenType.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" }
                ?? ""
            errors.append(
                SpecError(
                    .invalidValue, at: node.location,
                    "unknown token type '\(name)'\(hint) (expected \(TokenType.expected))"))
            return nil
        }
        return type
    }

    private mutating func readDeprecation(_ node: SpecNode, inherited: String?) -> String? {
        switch node.value {
        case .bool(let deprecated): return deprecated ? "" : nil
        case .string(let reason): return reason
        default:
            errors.append(
                SpecError(
                    .typeMismatch, at: node.location, "expected true, false or a reason, found \(node.foundDescription)"
                ))
            return inherited
        }
    }

    @discardableResult
    private mutating func requireString(_ node: SpecNode, _ what: String) -> String? {
        guard let text = node.string else {
            errors.append(
                SpecError(.typeMismatch, at: node.location, "expected \(what), found \(node.foundDescription)"))
            return nil
        }
        return text
    }

    @discardableResult
    private mutating func requireMapping(_ node: SpecNode) -> SpecNode? {
        guard node.members != nil else {
            errors.append(
                SpecError(
                    .typeMismatch, at: node.location,
                    "expected '$extensions' as an object, found \(node.foundDescription)"))
            return nil
        }
        return node
    }
}
