import Livery

/// The properties of a stylesheet Livery writes, checked on its text with ``CSSTokenizer``:
/// whatever a spec holds, no value escapes its declaration.
public enum StyleSheetChecks {
    /// Writes every stylesheet `spec` has (all themes, each theme's look, no theme's look) and
    /// checks each with ``check(_:context:)``.
    public static func checkAll(_ spec: Spec, context: String) {
        var sheets: [(String, StyleSheet)] = []
        do {
            sheets.append(("all themes", try spec.styleSheet()))
            sheets.append(("no theme's look", try spec.styleSheet(lookOf: nil)))
            for theme in spec.themes.prefix(4) { sheets.append(("theme \(theme)", try spec.styleSheet(theme: theme))) }
        } catch {
            fuzzCheck(false, "\(context): a stylesheet of a good spec, for one of its themes, threw \(error)")
        }
        for (name, sheet) in sheets { check(sheet.text, context: "\(context), \(name)") }
    }

    /// The stylesheet is a list of rules `selector { declarations }` and nothing else: no `<`
    /// anywhere (a page may inline it in `<style>`), no comment left open, no bad string or bad
    /// URL, no at-rule, and in each rule only `property: value;` declarations whose value holds
    /// no `{`, `}`, `;`, `!` or unbalanced bracket at its own level, and is empty only for a custom
    /// property.
    public static func check(_ text: String, context: String) {
        fuzzCheck(!text.unicodeScalars.contains("<"), "\(context): '<' in the stylesheet:\n\(text)")
        let (tokens, unclosed) = CSSTokenizer.tokens(of: text)
        fuzzCheck(!unclosed, "\(context): a comment is left open:\n\(text)")
        var index = 0
        func skipSpace() { while index < tokens.count, tokens[index] == .whitespace { index += 1 } }
        while true {
            skipSpace()
            guard index < tokens.count else { break }
            // The selector: up to the block, brackets balanced, only selector tokens.
            var depth = 0
            while index < tokens.count, !(depth == 0 && tokens[index] == .open("{")) {
                let token = tokens[index]
                switch token {
                case .open("("), .open("["), .function: depth += 1
                case .close(")"), .close("]"): depth -= 1
                case .ident, .string, .colon, .comma, .whitespace, .delim("~"), .delim("="): break
                default: fuzzCheck(false, "\(context): \(token) in a selector:\n\(text)")
                }
                fuzzCheck(depth >= 0, "\(context): a selector closes a bracket it did not open:\n\(text)")
                index += 1
            }
            fuzzCheck(depth == 0 && index < tokens.count, "\(context): a selector without its block:\n\(text)")
            index += 1
            checkDeclarations(tokens, from: &index, text: text, context: context)
        }
    }

    /// The declarations of a block, up to and past its `}`.
    private static func checkDeclarations(
        _ tokens: [CSSTokenizer.Token], from index: inout Int, text: String, context: String
    ) {
        while true {
            while index < tokens.count, tokens[index] == .whitespace { index += 1 }
            fuzzCheck(index < tokens.count, "\(context): a block is not closed:\n\(text)")
            if tokens[index] == .close("}") {
                index += 1
                return
            }
            guard case .ident(let property) = tokens[index], !property.isEmpty else {
                fuzzCheck(false, "\(context): \(tokens[index]) where a property name belongs:\n\(text)")
                return
            }
            index += 1
            fuzzCheck(
                index < tokens.count && tokens[index] == .colon, "\(context): no ':' after '\(property)':\n\(text)")
            index += 1
            var depth = 0
            var values = 0
            while index < tokens.count, !(depth == 0 && tokens[index] == .semicolon) {
                let token = tokens[index]
                switch token {
                case .open("("), .open("["), .function: depth += 1
                case .close(")"), .close("]"): depth -= 1
                case .open("{"), .close("}"), .semicolon, .badString, .badURL, .cdo, .cdc, .atKeyword, .delim("!"):
                    fuzzCheck(false, "\(context): \(token) in the value of '\(property)':\n\(text)")
                default: break
                }
                fuzzCheck(
                    depth >= 0, "\(context): the value of '\(property)' closes a bracket it did not open:\n\(text)")
                if token != .whitespace { values += 1 }
                index += 1
            }
            fuzzCheck(index < tokens.count, "\(context): the value of '\(property)' is not ended by ';':\n\(text)")
            // A custom property may be empty (`--gaps: ;`, an empty list): CSS Variables allows it.
            fuzzCheck(values > 0 || property.hasPrefix("--"), "\(context): '\(property)' has an empty value:\n\(text)")
            index += 1
        }
    }
}
