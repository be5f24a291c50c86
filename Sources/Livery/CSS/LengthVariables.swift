/// Which number variables of a spec are lengths, so that the stylesheet writes them as one
/// (`--type-body: 15px`) and a page can write `font-size: var(--type-body)`; every other number
/// stays unitless (`--opacity-muted: 0.5`, `--weight-bold: 600`), as CSS wants it for `opacity`,
/// `font-weight`, `line-height` or `calc()` factors.
///
/// A number variable is a length when
/// - it is a `dimension` design token (an alias, its target's type); a token of another type
///   is what its type says, whatever uses it;
/// - otherwise, when traits use it and every use is a length: the whole value of a field that
///   the trait's CSS form writes in pixels (`CornerRadius`'s `radius`, `Font`'s `size`, each
///   side of a `Padding`, …). A variable no trait uses, or one used inside a `~function`, a list
///   or another variable only, is a plain number.
///
/// Whether a trait type writes a field in pixels is asked of its CSS form: the entry is decoded
/// as written and again with that field's number changed, and the declarations that change must
/// all be pixels. The answer is kept per trait type and field, so a spec of thousands of
/// identifiers decodes each pair twice.
struct LengthVariables {
    private let spec: Spec
    private var scope: VariableScope
    /// Whether each trait type writes each field path in pixels.
    private var pixelFields: [FieldOfType: Bool] = [:]
    /// Whether every use of each variable met so far is a length, by dotted path.
    private var uses: [String: Bool] = [:]

    private struct FieldOfType: Hashable {
        let type: ObjectIdentifier
        let field: [String]
    }

    /// The dotted paths (`type.body`) of `spec`'s number variables that are lengths.
    static func paths(in spec: Spec) -> Set<String> {
        var finder = LengthVariables(spec: spec, scope: VariableScope(variables: spec.document.variables))
        for identifier in spec.document.identifiers {
            for entry in identifier.entries { finder.visit(entry) }
        }
        var lengths = Set(finder.uses.filter(\.value).keys)
        for (path, token) in spec.document.tokens {
            guard let type = Self.type(of: token, in: spec.document.tokens) else { continue }
            if type == .dimension { lengths.insert(path) } else { lengths.remove(path) }
        }
        return lengths
    }

    /// A token's type, an alias's from its target (`{a.b}`), through at most a few aliases.
    private static func type(of token: DesignToken, in tokens: [String: DesignToken]) -> TokenType? {
        var current = token
        for _ in 0..<VariableScope.maximumReferenceDepth {
            if let type = current.type { return type }
            guard let text = current.value.string, text.hasPrefix("{"), text.hasSuffix("}"),
                let target = tokens[String(text.dropFirst().dropLast())]
            else { return nil }
            current = target
        }
        return nil
    }

    /// Notes the uses of variables in one trait entry.
    private mutating func visit(_ entry: SpecNode) {
        guard let members = entry.members, let typeName = members.first(where: { $0.key == "type" })?.value.string,
            let type = spec.registry.type(named: typeName)
        else { return }
        for member in members where member.key != "type" {
            visit(member.value, field: [member.key], entry: entry, type: type)
        }
    }

    private mutating func visit(_ node: SpecNode, field: [String], entry: SpecNode, type: TraitType) {
        switch node.value {
        case .string(let text):
            switch VariableScope.lead(of: text) {
            case .reference: noteUse(of: String(text.dropFirst()), field: field, entry: entry, type: type)
            case .function: for path in Spec.references(in: node) { uses[path] = false }
            case .escaped, .plain: break
            }
        case .mapping(let members):
            for member in members { visit(member.value, field: field + [member.key], entry: entry, type: type) }
        case .sequence:
            for path in Spec.references(in: node) { uses[path] = false }
        case .null, .bool, .int, .double:
            break
        }
    }

    /// Variable `path` is the whole value of `field`: a number's use is a length when the trait
    /// writes the field in pixels; a mapping's (insets, a size) are its members' uses.
    private mutating func noteUse(of path: String, field: [String], entry: SpecNode, type: TraitType) {
        let value: SpecNode
        do {
            value = try scope.value(of: path, at: entry.location)
        } catch {
            return  // a Spec's references resolved when it was made; nothing to note otherwise
        }
        switch value.value {
        case .int, .double:
            let key = FieldOfType(type: ObjectIdentifier(type), field: field)
            let isLength: Bool
            if let known = pixelFields[key] {
                isLength = known
            } else {
                isLength = writesPixels(field, of: entry, type: type)
                pixelFields[key] = isLength
            }
            if !isLength || uses[path] == nil { uses[path] = isLength }
        case .mapping(let members):
            for member in members {
                noteUse(of: path + "." + member.key, field: field + [member.key], entry: entry, type: type)
            }
        case .null, .bool, .string, .sequence:
            break
        }
    }

    /// Whether `type`'s CSS form writes `field` of `entry` in pixels: the declarations that change
    /// with the field's number are all pixels (and some do).
    private mutating func writesPixels(_ field: [String], of entry: SpecNode, type: TraitType) -> Bool {
        do {
            let written = try scope.substitute(entry)
            guard let probe = Self.replacing(field, in: written, with: Self.otherNumber),
                let before = type.cssDeclarations(of: try type.decode(written)),
                let after = type.cssDeclarations(of: try type.decode(probe)), before.count == after.count
            else { return false }
            var changed: [(CSSValue, CSSValue)] = []
            for (one, other) in zip(before, after) {
                guard one.property == other.property else { return false }
                Self.differences(one.value, other.value, into: &changed)
            }
            return !changed.isEmpty && changed.allSatisfy { Self.isPixels($0.0) && Self.isPixels($0.1) }
        } catch {
            return false  // the changed number does not decode (a bounded field): not known to be a length
        }
    }

    /// Another number of the same kind, which a field taking the first most likely takes too.
    private static func otherNumber(_ value: SpecNode.Value) -> SpecNode.Value? {
        switch value {
        case .int(let int): .int(int == 0 ? 1 : int / 2)
        case .double(let double): .double(double == 0 ? 1 : double / 2)
        default: nil
        }
    }

    /// `node` with the number at `path` changed by `change`; nil when there is none there.
    private static func replacing(
        _ path: [String], in node: SpecNode, with change: (SpecNode.Value) -> SpecNode.Value?
    ) -> SpecNode? {
        guard let key = path.first else {
            return change(node.value).map { SpecNode($0, at: node.location) }
        }
        guard case .mapping(var members) = node.value, let index = members.firstIndex(where: { $0.key == key }),
            let replaced = replacing(Array(path.dropFirst()), in: members[index].value, with: change)
        else { return nil }
        members[index].value = replaced
        return SpecNode(.mapping(members), at: node.location)
    }

    /// The leaves in which two values differ.
    private static func differences(_ one: CSSValue, _ other: CSSValue, into changed: inout [(CSSValue, CSSValue)]) {
        switch (one, other) {
        case (.list(let a), .list(let b)), (.alternatives(let a), .alternatives(let b)):
            guard a.count == b.count else { return changed.append((one, other)) }
            for (x, y) in zip(a, b) { differences(x, y, into: &changed) }
        default:
            if one != other { changed.append((one, other)) }
        }
    }

    private static func isPixels(_ value: CSSValue) -> Bool {
        if case .pixels = value { return true }
        return false
    }
}
