import Foundation
import Livery

/// The properties of a spec read from design tokens documents.
public enum TokenChecks {
    /// Splits `data` at NUL into at most `names`.count files named so, in a `SpecSourceSet`.
    public static func sources(from data: Data, names: [String]) -> (SpecSourceSet, Set<String>) {
        let parts = data.split(
            separator: FuzzInput.separator, maxSplits: names.count - 1, omittingEmptySubsequences: false)
        var sources = SpecSourceSet()
        var paths = Set<String>()
        for (name, part) in zip(names, parts) {
            do {
                try sources.set(name, to: Data(part))
            } catch {
                fuzzCheck(false, "set('\(name)') refused a valid path: \(error)")
            }
            paths.insert(name)
        }
        return (sources, paths)
    }

    /// A good spec's tokens export (Spec.tokensDocument, and each theme's) is readable back as a
    /// `*.tokens.json` file, and the base export holds every token the spec read; its
    /// stylesheets pass ``StyleSheetChecks``.
    public static func checkSpec(_ spec: Spec, context: String) {
        _ = spec.warnings
        checkExport(spec.tokensDocument, tokens: spec.tokens.map(\.name), context: "\(context), tokensDocument")
        for theme in spec.themes.prefix(4) {
            do {
                let document = try spec.tokensDocument(theme: theme)
                checkExport(document, tokens: [], context: "\(context), tokensDocument(theme: \(theme))")
            } catch {
                fuzzCheck(false, "\(context): tokensDocument(theme:) of its own theme '\(theme)' threw \(error)")
            }
        }
        StyleSheetChecks.checkAll(spec, context: context)
    }

    private static func checkExport(_ document: SpecNode, tokens: [String], context: String) {
        let text = document.prettyJSON
        let again: Spec
        do {
            var sources = SpecSourceSet()
            try sources.set("export.tokens.json", to: Data(text.utf8))
            again = try Spec(sources: sources)
        } catch let error as SpecError where error.code == .limitExceeded {
            return  // an export can be larger than its sources (aliases written out)
        } catch {
            fuzzCheck(false, "\(context): the export does not read back: \(error)\n\(text)")
            return
        }
        let read = Set(again.tokens.map(\.name))
        let missing = tokens.filter { !read.contains($0) }
        fuzzCheck(missing.isEmpty, "\(context): the export lost tokens \(missing.prefix(5)):\n\(text)")
    }
}
