/// Makes an error message safe and short enough to print, whatever text of the spec it quotes.
///
/// Messages quote keys, values and paths from the file, and a hostile or broken file can make
/// those anything: a control character would reach a terminal (an escape sequence) or hide
/// itself (`'spe\u{7}cs'` printing as `'specs'`), and a 2 MB colour string would make a 2 MB
/// diagnostic, log line and 422 body. ``SpecError`` passes every message through here once.
enum MessageText {
    /// The longest run of non-blank characters kept whole; longer runs are elided in the middle.
    static let longestRun = 120

    /// `message` with control characters written as `\u{…}` escapes and every run of non-blank
    /// characters longer than ``longestRun`` shortened to its start and end around
    /// `…[N characters elided]…`.
    static func sanitized(_ message: String) -> String {
        // The common case, a short printable message, costs one scan and no allocation.
        guard message.unicodeScalars.contains(where: isControl) || hasLongRun(message) else { return message }
        var result = ""
        var run: [Unicode.Scalar] = []
        func flush() {
            if run.count > longestRun {
                let head = String(String.UnicodeScalarView(run.prefix(60)))
                let tail = String(String.UnicodeScalarView(run.suffix(12)))
                result += head + "…[\(run.count - 72) characters elided]…" + tail
            } else {
                result += String(String.UnicodeScalarView(run))
            }
            run.removeAll(keepingCapacity: true)
        }
        for scalar in message.unicodeScalars {
            if scalar == " " {
                flush()
                result.unicodeScalars.append(scalar)
            } else if isControl(scalar) {
                run += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars
            } else {
                run.append(scalar)
            }
        }
        flush()
        return result
    }

    /// C0 and C1 control characters and DEL: nothing a message should print raw.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hasLongRun(_ message: String) -> Bool {
        var length = 0
        for scalar in message.unicodeScalars {
            length = scalar == " " ? 0 : length + 1
            if length > longestRun { return true }
        }
        return false
    }
}
