/// CSS serialisation of identifiers and strings, after CSSOM's "serialize an identifier" and
/// "serialize a string" (the rules behind `CSS.escape`): whatever a spec writes, the text this
/// makes is one identifier or one string token, so no value can end its declaration, rule or
/// stylesheet early.
///
/// One addition to CSSOM: `<` is escaped as a code point too (`\3c `), so the stylesheet stays
/// inert when a page inlines it in a `<style>` element, where `</style>` would end the element
/// whatever CSS thinks of it; the stylesheet writer's comments write it so too.
public enum CSSText {
    /// `text` as one CSS identifier: `card.title` → `card\.title`, `1a` → `\31 a`.
    public static func identifier(_ text: String) -> String {
        var result = ""
        write(identifier: text, into: &result)
        return result
    }

    /// `text` as one double-quoted CSS string: `a"b` → `"a\"b"`.
    public static func string(_ text: String) -> String {
        var result = ""
        write(string: text, into: &result)
        return result
    }

    /// A number as CSS reads it: `2`, `0.25`, `1e+300`; a value that is not finite (which YAML
    /// can write) through `calc()`'s constants, so it stays one valid value.
    public static func number(_ value: Double) -> String {
        var result = ""
        write(number: value, into: &result)
        return result
    }

    /// Appends ``identifier(_:)`` of `text` to `output`.
    static func write(identifier text: String, into output: inout String) {
        // Most identifiers and every property name are letters, digits, `-` and `_`, and need
        // no escape.
        if isPlainIdentifier(text) {
            output += text
            return
        }
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            switch value {
            case 0:
                output.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F, 0x3C:
                writeCodePointEscape(scalar, into: &output)
            case 0x30...0x39 where index == 0 || (index == 1 && scalars[0] == "-"):
                writeCodePointEscape(scalar, into: &output)
            case 0x2D where index == 0 && scalars.count == 1:
                output += "\\-"
            case 0x80..., 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A:
                output.unicodeScalars.append(scalar)
            default:
                output += "\\"
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Appends ``string(_:)`` of `text` to `output`.
    static func write(string text: String, into output: inout String) {
        output += "\""
        if !text.utf8.contains(where: needsEscapeInString) {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0:
                    output.unicodeScalars.append("\u{FFFD}")
                case 0x01...0x1F, 0x7F, 0x3C:
                    writeCodePointEscape(scalar, into: &output)
                case 0x22, 0x5C:
                    output += "\\"
                    output.unicodeScalars.append(scalar)
                default:
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    /// Appends ``number(_:)`` of `value` to `output`.
    static func write(number value: Double, into output: inout String) {
        if value.isNaN {
            output += "calc(NaN)"
        } else if value.isInfinite {
            output += value > 0 ? "calc(infinity)" : "calc(-infinity)"
        } else if value.rounded() == value, abs(value) < 1e15 {
            output += String(Int64(value))
        } else {
            output += String(value)
        }
    }

    /// Whether ``identifier(_:)`` leaves `text` as it is: ASCII letters, digits, `-` and `_`
    /// only, not starting with a digit or `-` and a digit, and not `-` alone.
    private static func isPlainIdentifier(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next() else { return true }
        var previous = first
        var count = 1
        guard isNameByte(first), !isDigit(first) else { return false }
        while let byte = bytes.next() {
            guard isNameByte(byte), !(count == 1 && previous == 0x2D && isDigit(byte)) else { return false }
            previous = byte
            count += 1
        }
        return !(count == 1 && first == 0x2D)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2D, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Whether a UTF-8 byte of a string's text needs an escape (every byte of a multi-byte
    /// scalar is 0x80 or above, so none does).
    private static func needsEscapeInString(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0x3C || byte == 0x22 || byte == 0x5C
    }

    /// A comment's text with every `*/` broken, so it cannot end the comment, and `<` written
    /// `\3c ` as everywhere else in a stylesheet, so that `</style>` cannot end the element a page
    /// inlines it in (a comment reads no escapes: the text shows the escape as written).
    static func commentText(_ text: String) -> String {
        text.replacing("*/", with: "* /").replacing("<", with: "\\3c ")
    }

    /// `\` and the code point in lowercase hexadecimal, then the space that ends the escape.
    private static func writeCodePointEscape(_ scalar: Unicode.Scalar, into output: inout String) {
        output += "\\" + String(scalar.value, radix: 16) + " "
    }
}
