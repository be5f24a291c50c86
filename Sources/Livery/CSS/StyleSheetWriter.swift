/// Writes a ``StyleSheet``: the one place that decides selectors and the order of rules.
///
/// The daemon writes one per published version, so it is written for speed (Benchmarks/README.md,
/// figure 10): each distinct trait list is turned into declarations once, by the digest of its
/// resolved entries, so the lists a theme leaves alone and the lists identifiers share cost a
/// lookup; a trait type's CSS form is found once, when it is registered
/// (``TraitType/cssDeclarations(of:)``); and the text goes into one string, piece by piece.
struct StyleSheetWriter {
    let spec: Spec
    private var withoutCSS: Set<String> = []
    private var skipped: [SkippedIdentifier] = []
    private var notes: [String] = []
    private var body = ""
    /// The declarations of each trait list met, by the digest of its resolved entries: equal
    /// digests, equal traits.
    private var listDeclarations: [ContentDigest: [CSSDeclaration]] = [:]
    /// The rules of each combination of looks met (the digests of the base look's list and of
    /// each theme's, nil where a theme skips the identifier): identifiers with the same traits,
    /// as generated components and `Inherit`'s users have, share their rules but for the
    /// element.
    private var rulesOfLooks: [[ContentDigest?]: [Rule]] = [:]

    init(spec: Spec) { self.spec = spec }

    /// The stylesheet of the look of `base` (nil: no theme), and of each of `themes` behind its
    /// `data-livery-theme` selector.
    mutating func write(base: String?, themes: [String]) -> StyleSheet {
        body.reserveCapacity(spec.identifiers.count * 320)
        writeVariables(base: base, themes: themes)
        for identifier in spec.identifiers {
            writeRules(of: identifier, baseTheme: base, themes: themes)
        }
        var header = ""
        if !withoutCSS.isEmpty {
            header += comment(
                "trait types with no CSS form, not drawn here: " + withoutCSS.sorted().joined(separator: ", "))
        }
        if !skipped.isEmpty {
            header += comment(
                "left out, using a trait type this registry does not know: "
                    + skipped.map { "\($0.identifier) (\($0.traitType))" }.joined(separator: ", "))
        }
        for note in notes { header += comment(note) }
        return StyleSheet(
            text: header.isEmpty ? body : header + body, traitTypesWithoutCSS: withoutCSS.sorted(),
            skippedIdentifiers: skipped)
    }

    // MARK: Variables

    /// The base look's variables on `:root`; each theme's, where they differ, behind its selector.
    private mutating func writeVariables(base: String?, themes: [String]) {
        guard let variables = variableLeaves(theme: base) else { return }
        let lengths = variables.isEmpty ? [] : LengthVariables.paths(in: spec)
        let declarations = variables.compactMap { Self.declaration($0, lengths: lengths) }
        writeRule(":root", declarations)
        let positions = Dictionary(
            variables.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        for theme in themes {
            guard let overridden = variableLeaves(theme: theme) else { continue }
            // Only a leaf the theme changes (or adds) is written out again.
            let changed = overridden.filter { leaf in
                positions[leaf.path].map { !Self.sameValue(variables[$0].node, leaf.node) } ?? true
            }
            writeRule(
                ":root" + Self.themeAttribute(theme), changed.compactMap { Self.declaration($0, lengths: lengths) })
        }
    }

    /// A variable's value, its path the keys from the top (`["colors", "accent"]`).
    private typealias Leaf = (keys: [String], path: String, node: SpecNode)

    /// The variables under `theme` as leaves named by their path joined with `-`
    /// (`colors: { accent: … }` → `colors-accent`); nil (and a note) if one of them does not
    /// resolve, which a spec may have when no trait uses that variable.
    private mutating func variableLeaves(theme: String?) -> [Leaf]? {
        do {
            var leaves: [Leaf] = []
            Self.flatten(try spec.resolvedVariables(theme: theme), keys: [], into: &leaves)
            return leaves
        } catch {
            notes.append("variables\(theme.map { " of theme \($0)" } ?? "") not written: \(error.message)")
            return nil
        }
    }

    private static func flatten(_ node: SpecNode, keys: [String], into leaves: inout [Leaf]) {
        if let members = node.members {
            for member in members { flatten(member.value, keys: keys + [member.key], into: &leaves) }
        } else if !keys.isEmpty {
            leaves.append((keys, keys.joined(separator: "-"), node))
        }
    }

    /// A leaf as a custom property: colour texts as colours, so that a page can use
    /// `var(--colors-accent)` wherever CSS takes a colour, and numbers that are lengths
    /// (``LengthVariables``, by dotted path) in pixels, so that it can use `var(--type-body)`
    /// wherever CSS takes a length; any other number stays unitless.
    private static func declaration(_ leaf: Leaf, lengths: Set<String>) -> CSSDeclaration? {
        switch leaf.node.value {
        case .string(let text):
            if let color = try? Color(parsing: text) { return .custom(leaf.path, .color(color)) }
        case .int(let int) where lengths.contains(leaf.keys.joined(separator: ".")):
            return .custom(leaf.path, .pixels(Double(int)))
        case .double(let double) where lengths.contains(leaf.keys.joined(separator: ".")):
            return .custom(leaf.path, .pixels(double))
        default:
            break
        }
        return CSSValue(specValue: leaf.node).map { .custom(leaf.path, $0) }
    }

    /// Whether two leaves hold the same value (where they were written aside).
    private static func sameValue(_ one: SpecNode, _ other: SpecNode) -> Bool {
        switch (one.value, other.value) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.sequence(let a), .sequence(let b)): a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        default: false
        }
    }

    // MARK: Identifiers

    private mutating func writeRules(of identifier: String, baseTheme: String?, themes: [String]) {
        guard let base = look(of: identifier, theme: baseTheme) else { return }
        var key: [ContentDigest?] = [base.digest]
        var themed: [(theme: String, declarations: [CSSDeclaration])] = []
        for theme in themes {
            let themedLook = look(of: identifier, theme: theme)
            key.append(themedLook?.digest)
            if let themedLook { themed.append((theme, themedLook.declarations)) }
        }
        let rules: [Rule]
        if let known = rulesOfLooks[key] {
            rules = known
        } else {
            rules = Self.rules(base: base.declarations, themed: themed)
            rulesOfLooks[key] = rules
        }
        let element = "[data-livery~=" + CSSText.string(identifier) + "]"
        for rule in rules {
            body += rule.selectorPrefix
            writeRule(element, block: rule.block)
        }
    }

    /// An identifier's rule: the part of its selector before the element (empty, or the theme
    /// condition and a space), and its declarations as text.
    private struct Rule {
        var selectorPrefix: String
        var block: String
    }

    /// The rules of an identifier with the base look `base` and the themed looks `themed`.
    private static func rules(
        base: [CSSDeclaration], themed: [(theme: String, declarations: [CSSDeclaration])]
    ) -> [Rule] {
        let differing = themed.filter { $0.declarations != base }
        guard !differing.isEmpty else { return rule("", base).map { [$0] } ?? [] }
        // A base declaration whose property a theme does not set at all must not reach the
        // element under that theme: it goes behind a `:not()` of those themes.
        var kept: [CSSDeclaration] = []
        var excluded: [(themes: [String], declarations: [CSSDeclaration])] = []
        for declaration in base {
            let absent = differing.filter { !$0.declarations.contains { $0.property == declaration.property } }
            if absent.isEmpty {
                kept.append(declaration)
            } else if let index = excluded.firstIndex(where: { $0.themes == absent.map(\.theme) }) {
                excluded[index].declarations.append(declaration)
            } else {
                excluded.append((absent.map(\.theme), [declaration]))
            }
        }
        var rules = [rule("", kept)]
        for (themes, declarations) in excluded {
            let others = themes.map(themeAttribute).joined(separator: ", ")
            rules.append(rule(":where(:root:not(" + others + ")) ", declarations))
        }
        for (theme, declarations) in differing {
            rules.append(
                rule(
                    ":where(:root" + themeAttribute(theme) + ") ",
                    declarations.filter { !base.contains($0) }))
        }
        return rules.compactMap { $0 }
    }

    /// A rule of `declarations`; nil for none.
    private static func rule(_ selectorPrefix: String, _ declarations: [CSSDeclaration]) -> Rule? {
        guard !declarations.isEmpty else { return nil }
        var block = ""
        for declaration in declarations {
            block += "  "
            declaration.write(into: &block)
            block += ";\n"
        }
        return Rule(selectorPrefix: selectorPrefix, block: block)
    }

    /// What `identifier`'s traits under `theme` declare, each property only where it last
    /// appears, with the digest of the list; nil when the identifier is skipped for an unknown
    /// trait type, as a provider leaves such a target alone.
    private mutating func look(
        of identifier: String, theme: String?
    ) -> (digest: ContentDigest, declarations: [CSSDeclaration])? {
        let list = spec.resolution(for: theme)?.list(for: identifier) ?? .empty
        if let skip = list.skipped {
            if !skipped.contains(where: { $0.identifier == identifier }) { skipped.append(skip) }
            return nil
        }
        if let known = listDeclarations[list.digest] { return (list.digest, known) }
        var declarations: [CSSDeclaration] = []
        for resolved in list.traits {
            guard let css = resolved.type.cssDeclarations(of: resolved.trait) else {
                withoutCSS.insert(resolved.typeName)
                continue
            }
            declarations += css
        }
        declarations = Self.lastOfEach(declarations)
        listDeclarations[list.digest] = declarations
        return (list.digest, declarations)
    }

    /// `declarations` with each property only where it last appears: what a rule holding them
    /// all gives an element, since a later declaration of a property replaces an earlier one.
    /// (A list holds a few declarations: comparing them pairwise costs less than hashing.)
    private static func lastOfEach(_ declarations: [CSSDeclaration]) -> [CSSDeclaration] {
        var result: [CSSDeclaration] = []
        result.reserveCapacity(declarations.count)
        for (index, declaration) in declarations.enumerated()
        where !declarations[(index + 1)...].contains(where: { $0.property == declaration.property }) {
            result.append(declaration)
        }
        return result
    }

    // MARK: Text

    private static func themeAttribute(_ theme: String) -> String {
        "[data-livery-theme=" + CSSText.string(theme) + "]"
    }

    private mutating func writeRule(_ selector: String, _ declarations: [CSSDeclaration]) {
        guard let rule = Self.rule("", declarations) else { return }
        writeRule(selector, block: rule.block)
    }

    private mutating func writeRule(_ selector: String, block: String) {
        body += selector
        body += " {\n"
        body += block
        body += "}\n"
    }

    private func comment(_ text: String) -> String {
        "/* " + CSSText.commentText(text) + " */\n"
    }
}
