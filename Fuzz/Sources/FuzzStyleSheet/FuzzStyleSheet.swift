import Foundation
import FuzzSupport
import Livery

/// The CSS writer on hostile values. The bytes are read twice:
///
/// - as a spec (JSON if it starts with `{`, else YAML) whose every stylesheet — all themes,
///   each theme's look, no theme's look — must tokenize, by CSS Syntax Level 3, as rules of
///   `property: value;` declarations with no value escaping its declaration and no `<`
///   (``StyleSheetChecks``);
/// - as text (invalid UTF-8 replaced) given to `CSSText`: its identifier must be exactly one
///   identifier token and its string exactly one string token, each reading back to the text
///   (NUL as U+FFFD, as CSS reads it); and the first eight bytes as a double, written by
///   `CSSText.number`, must be one number token (or `calc()` of a constant) of that value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    do {
        let spec = try Spec(data: data, format: FuzzInput.format(of: data), source: "spec")
        StyleSheetChecks.checkAll(spec, context: "spec")
    } catch {
        SpecChecks.checkError(error, files: ["spec"], context: "Spec(data:)")
    }
    let text = String(decoding: data, as: UTF8.self)
    let read = text.replacingOccurrences(of: "\0", with: "\u{FFFD}")
    if !text.isEmpty {
        let identifier = CSSText.identifier(text)
        let tokens = CSSTokenizer.tokens(of: identifier).tokens
        fuzzCheck(
            tokens == [.ident(read)], "CSSText.identifier(\(text.debugDescription)) = \(identifier) reads as \(tokens)")
    }
    let string = CSSText.string(text)
    let tokens = CSSTokenizer.tokens(of: string).tokens
    fuzzCheck(tokens == [.string(read)], "CSSText.string(\(text.debugDescription)) = \(string) reads as \(tokens)")
    if count >= 8 {
        let value = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Double.self) }
        checkNumber(value)
    }
    return 0
}

private func checkNumber(_ value: Double) {
    let text = CSSText.number(value)
    let tokens = CSSTokenizer.tokens(of: text).tokens
    if value.isNaN || value.isInfinite {
        let constant = value.isNaN ? "NaN" : value > 0 ? "infinity" : "-infinity"
        let expected: [CSSTokenizer.Token] = [.function("calc"), .ident(constant), .close(")")]
        fuzzCheck(tokens == expected, "CSSText.number(\(value)) = \(text) reads as \(tokens)")
        return
    }
    guard tokens.count == 1, case .number(let number) = tokens[0] else {
        fuzzCheck(false, "CSSText.number(\(value)) = \(text) reads as \(tokens), not one number")
        return
    }
    fuzzCheck(
        Double(number) == value,
        "CSSText.number(\(value)) = \(text) reads as \(number)")
}
