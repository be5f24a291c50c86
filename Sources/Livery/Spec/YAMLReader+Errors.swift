import CLibYAML

/// libyaml's errors in our diagnostic style: its problem, where it is, and the context it was
/// found in ("while parsing a block mapping at …").
extension YAMLReader {
    /// The error libyaml's parser stopped on.
    static func syntaxError(of parser: yaml_parser_t, in text: SpecText) -> SpecError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_READER_ERROR:
            // libyaml gives the byte offset in the input, which starts after any byte order mark.
            let value = parser.problem_value
            let character = value >= 0 ? " (\(JSONReader.codePoint(UInt32(value))))" : ""
            let location = text.location(ofOffset: Int(parser.problem_offset))
            return SpecError(.syntax, at: location, "invalid YAML: \(problem)\(character)")
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let context = parser.context.map { (String(cString: $0), parser.context_mark) }
            return syntaxError(problem: problem, at: parser.problem_mark, context: context, in: text)
        default:
            return SpecError(.syntax, at: .start(of: text.source), "invalid YAML: libyaml failed (\(problem))")
        }
    }

    private static func syntaxError(
        problem: String, at mark: yaml_mark_t, context: (String, yaml_mark_t)?, in text: SpecText
    ) -> SpecError {
        let line = Int(mark.line) + 1
        let column = Int(mark.column) + 1
        var message = problem
        if problem == "found character that cannot start any token", let found = character(line, column, in: text) {
            message = "found character \(found) that cannot start any token"
            if found == "'\\t'" { message += " (indent with spaces, not tabs)" }
        } else if problem == "mapping values are not allowed in this context", column > 1024 {
            // libyaml reads a plain key of more than 1024 characters as a value, then trips on its ':'.
            message += " (if this is meant as a key: plain keys are at most 1024 characters long)"
        }
        if let (contextText, contextMark) = context {
            let contextLine = Int(contextMark.line) + 1
            let contextColumn = Int(contextMark.column) + 1
            let at =
                contextLine == line && contextColumn == column
                ? "" : " at \(text.source):\(contextLine):\(contextColumn)"
            message += " (\(contextText)\(at))"
        }
        let location = SourceLocation(file: text.source, line: line, column: column)
        return SpecError(.syntax, at: location, "invalid YAML: \(message)")
    }

    /// The character at a place, quoted for a message: `'@'`, `'\t'`, or `U+00A0`.
    private static func character(_ line: Int, _ column: Int, in text: SpecText) -> String? {
        guard let offset = text.offset(ofLine: line, column: column), offset < text.bytes.count else {
            return nil
        }
        let tail = UnsafeBufferPointer(rebasing: text.bytes[offset..<min(offset + 4, text.bytes.count)])
        guard let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first else { return nil }
        switch scalar {
        case "\t": return "'\\t'"
        case _
        where scalar.value < 0x20 || scalar.value == 0x7F
            || scalar.properties.generalCategory == .spaceSeparator:
            return JSONReader.codePoint(scalar.value)
        default: return "'\(scalar)'"
        }
    }
}
