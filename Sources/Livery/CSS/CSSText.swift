/// CSS serialisation of identifiers and strings, after CSSOM's "serialize an identifier" and
/// "serialize a string" (the rules behind `CSS.escape`): whatever a spec writes, the text this
/// makes is one identifier or one string token, so no value can end its declaration, rule or
/// stylesheet early.
///
/// One addition to CSSOM: `<` is escaped as a code point too (`\3c `), so the stylesheet stays
/// inert when a page inlines it in a `<style>` element, where `</style>` would end the element
/// whatever CSS thinks of it.
public enum CSSText {
    /// `text` as one CSS identifier: `card.title` → `card\.title`, `1a` → `\31 a`.
    public static func identifier(_ text: String) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            switch value {
            case 0:
                result.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F, 0x3C:
                result += codePointEscape(scalar)
            case 0x30...0x39 where index == 0 || (index == 1 && scalars[0] == "-"):
                result += codePointEscape(scalar)
            case 0x2D where index == 0 && scalars.count == 1:
                result += "\\-"
            case 0x80..., 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A:
                result.unicodeScalars.append(scalar)
            default:
                result += "\\"
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` as one double-quoted CSS string: `a"b` → `"a\"b"`.
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0:
                result.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F, 0x3C:
                result += codePointEscape(scalar)
            case 0x22, 0x5C:
                result += "\\"
                result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A number as CSS reads it: `2`, `0.25`, `1e+300`; a value that is not finite (which YAML
    /// can write) through `calc()`'s constants, so it stays one valid value.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "calc(NaN)" }
        if value.isInfinite { return value > 0 ? "calc(infinity)" : "calc(-infinity)" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A comment's text with every `*/` broken, so it cannot end the comment.
    static func commentText(_ text: String) -> String {
        text.replacing("*/", with: "* /")
    }

    /// `\` and the code point in lowercase hexadecimal, then the space that ends the escape.
    private static func codePointEscape(_ scalar: Unicode.Scalar) -> String {
        "\\" + String(scalar.value, radix: 16) + " "
    }
}
