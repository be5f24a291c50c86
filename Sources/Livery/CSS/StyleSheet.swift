/// A spec written as CSS, and what of it CSS could not show.
///
/// - Variables are custom properties on `:root`, their path joined by `-`
///   (`colors.accent` → `--colors-accent`); a theme's changed ones on
///   `:root[data-livery-theme="dark"]`. Colours are written as colours; a number that is a
///   length (a `dimension` token, or one every trait use of which is a length: see
///   `LengthVariables`) in pixels, `--type-body: 15px`, so a page can write
///   `font-size: var(--type-body)`; any other number unitless.
/// - Each identifier is a rule selecting `[data-livery~="card.title"]` (an element may carry
///   several identifiers, space-separated), with its traits' ``CSSTrait/cssDeclarations`` in
///   order.
/// - Themes: an identifier whose traits differ under a theme keeps its base rule and gets, per
///   such theme, a rule behind `:where(:root[data-livery-theme="…"])` with only the declarations
///   that theme changes or adds; a base declaration whose property the theme does not set at all
///   moves behind `:where(:root:not([data-livery-theme="…"]))`. So an element gets exactly the
///   traits a Swift target gets under the same theme, values written out (`~mix` and `~alpha`
///   already evaluated), and a page switches themes by setting one attribute.
/// - Every identifier's rules weigh the same (`:where()` adds nothing to a selector's
///   specificity): among them, the later rule wins, as a later trait does on a Swift target. A
///   property a trait declares twice is written once, where it last appears.
///
/// Made by ``Spec/styleSheet(theme:)``.
public struct StyleSheet: Sendable {
    /// The stylesheet.
    public let text: String
    /// The trait types the spec uses that have no CSS form (do not adopt ``CSSTrait``), sorted;
    /// named in a comment at the top of ``text``.
    public let traitTypesWithoutCSS: [String]
    /// The identifiers left out because they use a trait type the registry does not know (a
    /// spec read with ``UnknownTraitPolicy/skipIdentifier``); named at the top of ``text``.
    public let skippedIdentifiers: [SkippedIdentifier]
}

extension Spec {
    /// The spec as CSS: every theme, selected by `data-livery-theme` on the root element; or,
    /// given `theme`, that theme's look alone with no theme selectors (for a site built for one).
    ///
    /// - Throws: ``SpecError`` for a theme the spec does not define.
    public func styleSheet(theme: String? = nil) throws(SpecError) -> StyleSheet {
        guard let theme else {
            var writer = StyleSheetWriter(spec: self)
            return writer.write(base: nil, themes: themes)
        }
        return try styleSheet(lookOf: theme)
    }

    /// One look alone, with no theme selectors: `theme`'s, or with nil the look of no theme
    /// (what a page without `data-livery-theme` gets, for a preview of just that look).
    ///
    /// - Throws: ``SpecError`` for a theme the spec does not define.
    public func styleSheet(lookOf theme: String?) throws(SpecError) -> StyleSheet {
        if let theme, !themes.contains(theme) {
            _ = try resolvedVariables(theme: theme)  // throws the unknown-theme error
        }
        var writer = StyleSheetWriter(spec: self)
        return writer.write(base: theme, themes: [])
    }
}
