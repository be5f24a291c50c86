import Yams

/// Yams's errors in our diagnostic style: libyaml's problem, where it is, and the context it was
/// found in ("while parsing a block mapping at …"), without Yams's multi-line snippet.
extension YAMLReader {
    static func specError(for error: YamlError, in text: SpecText, limits: ReaderLimits) -> SpecError {
        switch error {
        case let .reader(problem, offset, value, yaml):
            // Yams gives the offset in Characters of the string it parsed.
            let location = offset
                .flatMap { yaml.index(yaml.startIndex, offsetBy: $0, limitedBy: yaml.endIndex) }
                .map { text.location(ofOffset: yaml.utf8.distance(from: yaml.utf8.startIndex, to: $0)) }
                ?? .start(of: text.source)
            let character = value >= 0 ? " (\(JSONReader.codePoint(UInt32(value))))" : ""
            return SpecError(.syntax, at: location, "invalid YAML: \(problem)\(character)")
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            return specError(context: context, problem: problem, mark: mark, in: text, limits: limits)
        case let .duplicatedKeysInMapping(duplicates, context):
            let location = SourceLocation(file: text.source, line: context.mark.line, column: context.mark.column)
            return SpecError(.duplicateKey, at: location, "duplicate key '\(duplicates.first ?? "")'")
        case .dataCouldNotBeDecoded:
            return SpecError(.syntax, at: .start(of: text.source), "invalid UTF-8; spec files must be UTF-8")
        case .no, .memory, .writer, .emitter, .representer:
            return SpecError(.syntax, at: .start(of: text.source), "invalid YAML: \(error)")
        }
    }

    private static func specError(
        context: YamlError.Context?, problem: String, mark: Mark, in text: SpecText, limits: ReaderLimits
    ) -> SpecError {
        let location = SourceLocation(file: text.source, line: mark.line, column: mark.column)
        if context?.text == "expected a single document in the stream" {
            return SpecError(.syntax, at: location, "found a second YAML document; a spec file holds exactly one")
        }
        if problem.hasPrefix("Maximum nesting level") {
            return SpecError(
                .limitExceeded, at: location, "document nests deeper than \(limits.maxDepth) levels (the depth limit)")
        }
        var message = problem
        if problem == "found character that cannot start any token", let found = character(at: mark, in: text) {
            message = "found character \(found) that cannot start any token"
            if found == "'\\t'" { message += " (indent with spaces, not tabs)" }
        } else if problem == "mapping values are not allowed in this context", mark.column > 1024 {
            // libyaml reads a plain key of more than 1024 characters as a value, then trips on its ':'.
            message += " (if this is meant as a key: plain keys are at most 1024 characters long)"
        } else if problem == "found undefined alias", let offset = text.offset(ofLine: mark.line, column: mark.column) {
            var end = offset + 1
            while end < text.bytes.count, !Self.endsAliasName(text.bytes[end]) { end += 1 }
            let alias = String(decoding: UnsafeBufferPointer(rebasing: text.bytes[offset..<end]), as: UTF8.self)
            message = "undefined alias '\(alias)'"
        }
        if let context {
            let at = context.mark.line == mark.line && context.mark.column == mark.column
                ? "" : " at \(text.source):\(context.mark.line):\(context.mark.column)"
            message += " (\(context.text)\(at))"
        }
        return SpecError(.syntax, at: location, "invalid YAML: \(message)")
    }

    private static func endsAliasName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","),
            UInt8(ascii: "]"), UInt8(ascii: "}"):
            true
        default: false
        }
    }

    /// The character at a mark, quoted for a message: `'@'`, `'\t'`, or `U+00A0`.
    private static func character(at mark: Mark, in text: SpecText) -> String? {
        guard let offset = text.offset(ofLine: mark.line, column: mark.column), offset < text.bytes.count else {
            return nil
        }
        let tail = UnsafeBufferPointer(rebasing: text.bytes[offset..<min(offset + 4, text.bytes.count)])
        guard let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first else { return nil }
        switch scalar {
        case "\t": return "'\\t'"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .spaceSeparator:
            return JSONReader.codePoint(scalar.value)
        default: return "'\(scalar)'"
        }
    }
}
