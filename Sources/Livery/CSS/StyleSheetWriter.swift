/// Writes a ``StyleSheet``: the one place that decides selectors and the order of rules.
struct StyleSheetWriter {
    let spec: Spec
    private var withoutCSS: Set<String> = []
    private var skipped: [SkippedIdentifier] = []
    private var notes: [String] = []
    private var body = ""

    init(spec: Spec) { self.spec = spec }

    /// The stylesheet of the look of `base` (nil: no theme), and of each of `themes` behind its
    /// `data-livery-theme` selector.
    mutating func write(base: String?, themes: [String]) -> StyleSheet {
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
            text: header + body, traitTypesWithoutCSS: withoutCSS.sorted(), skippedIdentifiers: skipped)
    }

    // MARK: Variables

    private mutating func writeVariables(base: String?, themes: [String]) {
        guard let variables = resolvedVariables(theme: base) else { return }
        writeRule(":root", variables)
        for theme in themes {
            guard let overridden = resolvedVariables(theme: theme) else { continue }
            let changed = overridden.filter { !variables.contains($0) }
            writeRule(":root" + themeAttribute(theme), changed)
        }
    }

    /// The variables under `theme` as custom properties; nil (and a note) if one of them does not
    /// resolve, which a spec may have when no trait uses that variable.
    private mutating func resolvedVariables(theme: String?) -> [CSSDeclaration]? {
        do {
            var declarations: [CSSDeclaration] = []
            Self.flatten(try spec.resolvedVariables(theme: theme), path: "", into: &declarations)
            return declarations
        } catch {
            notes.append("variables\(theme.map { " of theme \($0)" } ?? "") not written: \(error.message)")
            return nil
        }
    }

    /// `colors: { accent: … }` → `--colors-accent`; colour texts as colours, so that a page can
    /// use `var(--colors-accent)` wherever CSS takes a colour.
    private static func flatten(_ node: SpecNode, path: String, into declarations: inout [CSSDeclaration]) {
        if let members = node.members {
            for member in members {
                flatten(member.value, path: path.isEmpty ? member.key : path + "-" + member.key, into: &declarations)
            }
            return
        }
        guard !path.isEmpty else { return }
        if case .string(let text) = node.value, let color = try? Color(parsing: text) {
            declarations.append(.custom(path, .color(color)))
        } else if let value = CSSValue(specValue: node) {
            declarations.append(.custom(path, value))
        }
    }

    // MARK: Identifiers

    private mutating func writeRules(of identifier: String, baseTheme: String?, themes: [String]) {
        let element = "[data-livery~=" + CSSText.string(identifier) + "]"
        guard let base = declarations(of: identifier, theme: baseTheme).map(Self.lastOfEach) else { return }
        var differing: [(theme: String, declarations: [CSSDeclaration])] = []
        for theme in themes {
            guard let themed = declarations(of: identifier, theme: theme).map(Self.lastOfEach) else { continue }
            if themed != base { differing.append((theme, themed)) }
        }
        guard !differing.isEmpty else {
            writeRule(element, base)
            return
        }
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
        writeRule(element, kept)
        for (themes, declarations) in excluded {
            let others = themes.map(themeAttribute).joined(separator: ", ")
            writeRule(":where(:root:not(" + others + ")) " + element, declarations)
        }
        for (theme, themed) in differing {
            writeRule(":where(:root" + themeAttribute(theme) + ") " + element, themed.filter { !base.contains($0) })
        }
    }

    /// `declarations` with each property only where it last appears: what a rule holding them
    /// all gives an element, since a later declaration of a property replaces an earlier one.
    private static func lastOfEach(_ declarations: [CSSDeclaration]) -> [CSSDeclaration] {
        var seen: Set<String> = []
        var result: [CSSDeclaration] = []
        for declaration in declarations.reversed() where seen.insert(declaration.property).inserted {
            result.append(declaration)
        }
        return result.reversed()
    }

    /// The declarations of `identifier`'s traits under `theme`; nil when the identifier is
    /// skipped for an unknown trait type, as a provider leaves such a target alone.
    private mutating func declarations(of identifier: String, theme: String?) -> [CSSDeclaration]? {
        if let skip = spec.skippedIdentifiers(theme: theme).first(where: { $0.identifier == identifier }) {
            if !skipped.contains(where: { $0.identifier == identifier }) { skipped.append(skip) }
            return nil
        }
        var declarations: [CSSDeclaration] = []
        for trait in spec.traits(for: identifier, theme: theme) {
            guard let css = Self.cssDeclarations(of: trait) else {
                withoutCSS.insert(type(of: trait).typeName)
                continue
            }
            declarations += css
        }
        return declarations
    }

    /// A trait's CSS form: its own (``CSSTrait``), or that of the properties it declares
    /// (``PropertyTrait``, each ``TraitProperty``'s `css`); nil when it has none.
    static func cssDeclarations(of trait: any Trait) -> [CSSDeclaration]? {
        if let styled = trait as? any CSSTrait { return styled.cssDeclarations }
        if let declared = trait as? any PropertyTrait { return propertiesCSS(of: declared) }
        return nil
    }

    private static func propertiesCSS<Declared: PropertyTrait>(of trait: Declared) -> [CSSDeclaration]? {
        var declarations: [CSSDeclaration] = []
        for property in Declared.properties {
            guard let css = property.css else { return nil }
            declarations += css(trait)
        }
        return declarations
    }

    // MARK: Text

    private func themeAttribute(_ theme: String) -> String {
        "[data-livery-theme=" + CSSText.string(theme) + "]"
    }

    private mutating func writeRule(_ selector: String, _ declarations: [CSSDeclaration]) {
        guard !declarations.isEmpty else { return }
        body += selector + " {\n"
        for declaration in declarations {
            body += "  " + declaration.cssText + ";\n"
        }
        body += "}\n"
    }

    private func comment(_ text: String) -> String {
        "/* " + CSSText.commentText(text) + " */\n"
    }
}
