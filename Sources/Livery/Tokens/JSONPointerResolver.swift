import Foundation

/// Resolves `$ref` JSON Pointers (RFC 6901) within one design tokens document: `#/colors/blue`,
/// `#/colors/blue/$value/components/0`. The Format Module defines `$ref` within one document
/// ("any location within the design token document structure"), so a reference into another
/// file (`other.tokens.json#/a`) is a located error; a pointer that loops back through the
/// references it leads to is a located `cycle` error.
struct JSONPointerResolver {
    /// The pointers being expanded, outermost first.
    private var stack: [String] = []

    /// The node `pointer` (a `$ref` string node) names, with the references inside it expanded;
    /// nil after recording why it cannot be read.
    mutating func target(of pointer: SpecNode, in root: SpecNode, errors: inout [SpecError]) -> SpecNode? {
        guard let text = pointer.string else {
            errors.append(
                SpecError(
                    .typeMismatch, at: pointer.location,
                    "expected a JSON Pointer '#/…', found \(pointer.foundDescription)"))
            return nil
        }
        guard text == "#" || text.hasPrefix("#/") else {
            errors.append(
                SpecError(
                    .forbiddenPath, at: pointer.location,
                    "'\(text)' is not a pointer into this document: the Format Module's $ref is a JSON Pointer within its own document ('#/…'); files combine through a resolver document (*.resolver.json)"
                ))
            return nil
        }
        if let start = stack.firstIndex(of: text) {
            errors.append(
                SpecError(
                    .cycle, at: pointer.location, "$ref cycle: \((stack[start...] + [text]).joined(separator: " → "))"))
            return nil
        }
        var node = root
        for segment in Self.segments(text) {
            switch node.value {
            case .mapping(let members):
                guard let next = members.first(where: { $0.key == segment }) else {
                    return missing(text, pointer, &errors)
                }
                node = next.value
            case .sequence(let items):
                guard let index = Int(segment), segment == String(index), items.indices.contains(index) else {
                    return missing(text, pointer, &errors)
                }
                node = items[index]
            default:
                return missing(text, pointer, &errors)
            }
        }
        stack.append(text)
        defer { stack.removeLast() }
        return expandValues(node, in: root, errors: &errors)
    }

    /// `node` with every `{"$ref": …}` object inside it replaced by its target, the object's
    /// other members laid over a target that is an object.
    mutating func expandValues(_ node: SpecNode, in root: SpecNode, errors: inout [SpecError]) -> SpecNode {
        // Most values hold no reference: they are kept as they are, not rebuilt.
        guard ValueReferences(of: node).contains(.pointer) else { return node }
        switch node.value {
        case .mapping(let members):
            if let reference = members.first(where: { Self.isReference($0.key) }) {
                guard let target = self.target(of: reference.value, in: root, errors: &errors) else { return node }
                let local = members.filter { !Self.isReference($0.key) }
                guard var merged = target.members, !local.isEmpty else {
                    return SpecNode(target.value, at: node.location)
                }
                for member in local {
                    let value = expandValues(member.value, in: root, errors: &errors)
                    if let index = merged.firstIndex(where: { $0.key == member.key }) {
                        merged[index] = SpecNode.Member(key: member.key, keyLocation: member.keyLocation, value: value)
                    } else {
                        merged.append(SpecNode.Member(key: member.key, keyLocation: member.keyLocation, value: value))
                    }
                }
                return SpecNode(.mapping(merged), at: node.location)
            }
            var expanded = members
            for index in expanded.indices {
                expanded[index].value = expandValues(expanded[index].value, in: root, errors: &errors)
            }
            return SpecNode(.mapping(expanded), at: node.location)
        case .sequence(let items):
            var expanded: [SpecNode] = []
            expanded.reserveCapacity(items.count)
            for item in items { expanded.append(expandValues(item, in: root, errors: &errors)) }
            return SpecNode(.sequence(expanded), at: node.location)
        case .null, .bool, .int, .double, .string:
            return node
        }
    }

    /// Whether `key` is `$ref`. Its length first: every member of every value is asked, and
    /// two strings that differ are told apart by a call into the standard library.
    static func isReference(_ key: String) -> Bool {
        key.utf8.count == 4 && key == "$ref"
    }

    /// Whether a pointer reaches into a token's value rather than naming a token or a group.
    func pointsIntoValue(_ pointer: SpecNode) -> Bool {
        guard let text = pointer.string else { return false }
        return Self.segments(text).contains("$value")
    }

    /// The unescaped segments of `#/a/b~1c`: `["a", "b/c"]`.
    private static func segments(_ pointer: String) -> [String] {
        pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }.filter { _ in pointer != "#" }
    }

    private func missing(_ text: String, _ pointer: SpecNode, _ errors: inout [SpecError]) -> SpecNode? {
        errors.append(
            SpecError(.unresolvedReference, at: pointer.location, "$ref '\(text)' names nothing in this document"))
        return nil
    }
}
