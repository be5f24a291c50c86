/// Broken text: truncated documents, bad encodings, bad numbers, empty and binary files.
extension BadInput {
    static let syntaxCases: [BadInput] = [
        // Truncated JSON, cut at several points.
        BadInput(
            "JSON cut inside a trait list", "bad.json", #"{"specs": {"badge": ["#, (1, 22), "syntax",
            "expected a JSON value, found the end of the document"),
        BadInput("JSON cut inside a key", "bad.json", #"{"specs": {"bad"#, (1, 12), "syntax", "unterminated string"),
        BadInput(
            "JSON cut after a colon", "bad.json", #"{"specs": {"badge": [{"type": "CornerRadius", "radius": "#,
            (1, 57), "syntax", "expected a JSON value, found the end of the document"),
        BadInput(
            "JSON cut inside a literal", "bad.json", #"{"specs": {"badge": [{"type": "Hidden", "hidden": tr"#,
            (1, 51), "syntax", "expected a JSON value, found 'tr'"),
        BadInput(
            "JSON cut after a comma", "bad.json", #"{"specs": {"badge": [],"#, (1, 24), "syntax",
            "expected a string key, found the end of the document"),
        // Truncated YAML.
        BadInput(
            "YAML cut inside a flow mapping", "bad.yaml", "specs:\n  badge:\n    - { type: CornerRadius, radius: 4",
            (4, 1), "syntax",
            "invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at bad.yaml:3:7)"),
        BadInput(
            "YAML cut inside a quoted string", "bad.yaml",
            "specs:\n  badge:\n    - { type: BackgroundColor, color: \"#FF",
            (3, 43), "syntax",
            "invalid YAML: found unexpected end of stream (while scanning a quoted scalar at bad.yaml:3:39)"),
        BadInput(
            "YAML cut after a key", "bad.yaml", "specs:\n  badge:\n    - type: CornerRadius\n      radius:", (4, 14),
            "typeMismatch", "'radius' of trait CornerRadius: expected a number, found null"),
        BadInput(
            "YAML cut inside an identifier", "bad.yaml", "specs:\n  bad", (2, 3), "typeMismatch",
            "expected a mapping of identifiers to trait lists, found the string 'bad'"),
        BadInput(
            "YAML cut inside a flow list", "bad.yaml", "specs:\n  badge: [{ type: Hidden, hidden: true },", (3, 1),
            "syntax", "invalid YAML: did not find expected node content (while parsing a flow node)"),
        // Encodings.
        BadInput(
            "invalid UTF-8 in a YAML value", "bad.yaml",
            raw: Array("specs:\n  badge: [{ type: TextColor, color: \"caf".utf8) + [0xC3, 0x28] + Array("\" }]\n".utf8),
            (2, 41), "syntax", "invalid UTF-8 byte 0xC3; spec files must be UTF-8"),
        BadInput(
            "invalid UTF-8 in a JSON key", "bad.json",
            raw: Array(#"{"specs": {"b"#.utf8) + [0xFF] + Array(#"adge": []}}"#.utf8),
            (1, 14), "syntax", "invalid UTF-8 byte 0xFF; spec files must be UTF-8"),
        BadInput(
            "overlong UTF-8 in a comment", "bad.yaml", raw: Array("specs:\n  badge: []\n# ".utf8) + [0xC0, 0xAF, 0x0A],
            (3, 3), "syntax", "invalid UTF-8 byte 0xC0; spec files must be UTF-8"),
        BadInput(
            "UTF-8-encoded surrogate", "bad.json",
            raw: Array(#"{"specs": {"badge"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"": []}}"#.utf8),
            (1, 18), "syntax", "invalid UTF-8 byte 0xED; spec files must be UTF-8"),
        // A UTF-8 byte order mark is accepted (editors on Windows write one) and not counted in columns.
        BadInput(
            "UTF-8 BOM, then an error", "bad.yaml",
            "\u{FEFF}specs:\n  badge:\n    - { type: CornerRadius, radius: x }\n",
            (3, 37), "typeMismatch", "'radius' of trait CornerRadius: expected a number, found the string 'x'"),
        BadInput(
            "UTF-16 LE with its BOM", "bad.yaml", raw: [0xFF, 0xFE] + utf16LE("specs:\n  badge: []\n"), (1, 1),
            "syntax", "the file is UTF-16 (it starts with the byte order mark FF FE); spec files must be UTF-8"),
        BadInput(
            "UTF-16 BE with its BOM", "bad.json", raw: [0xFE, 0xFF] + utf16LE(#"{"specs": {}}"#).byteSwappedPairs,
            (1, 1), "syntax", "the file is UTF-16 (it starts with the byte order mark FE FF); spec files must be UTF-8"),
        BadInput(
            "UTF-16 LE without a BOM", "bad.yaml", raw: utf16LE("specs: {}\n"), (1, 2), "syntax",
            "NUL byte: the file looks like UTF-16; spec files must be UTF-8"),
        // Numbers JSON and YAML 1.2 do not have, or doubles cannot hold.
        BadInput(
            "JSON NaN", "bad.json", #"{"specs": {"badge": [{"type": "Opacity", "opacity": NaN}]}}"#, (1, 53),
            "invalidValue", "non-finite number 'NaN' is not allowed"),
        BadInput(
            "JSON Infinity", "bad.json", #"{"specs": {"badge": [{"type": "CornerRadius", "radius": Infinity}]}}"#,
            (1, 57), "invalidValue", "non-finite number 'Infinity' is not allowed"),
        BadInput(
            "JSON -Infinity", "bad.json", #"{"specs": {"badge": [{"type": "CornerRadius", "radius": -Infinity}]}}"#,
            (1, 57), "invalidValue", "non-finite number '-Infinity' is not allowed"),
        BadInput(
            "YAML .nan", "bad.yaml", "specs:\n  badge: [{ type: Opacity, opacity: .nan }]\n", (2, 37), "invalidValue",
            "non-finite number '.nan' is not allowed"),
        BadInput(
            "YAML .inf", "bad.yaml", "specs:\n  badge: [{ type: CornerRadius, radius: .inf }]\n", (2, 41),
            "invalidValue", "non-finite number '.inf' is not allowed"),
        BadInput(
            "YAML -.Inf", "bad.yaml", "specs:\n  badge: [{ type: CornerRadius, radius: -.Inf }]\n", (2, 41),
            "invalidValue", "non-finite number '-.Inf' is not allowed"),
        BadInput(
            "JSON 1e400", "bad.json", #"{"specs": {"badge": [{"type": "CornerRadius", "radius": 1e400}]}}"#, (1, 57),
            "invalidValue", "number 1e400 is out of range"),
        BadInput(
            "YAML 1e400", "bad.yaml", "specs:\n  badge: [{ type: CornerRadius, radius: 1e400 }]\n", (2, 41),
            "invalidValue", "number 1e400 is out of range"),
        // Nothing, or nothing but noise.
        BadInput("empty YAML file", "bad.yaml", "", (1, 1), "syntax", "empty document: expected a YAML value"),
        BadInput("empty JSON file", "bad.json", "", (1, 1), "syntax", "empty document: expected a JSON value"),
        BadInput(
            "whitespace-only YAML", "bad.yaml", "  \n   \n\n", (1, 1), "syntax", "empty document: expected a YAML value"
        ),
        BadInput(
            "whitespace-only JSON", "bad.json", " \r\n\n ", (1, 1), "syntax", "empty document: expected a JSON value"),
        BadInput(
            "comment-only YAML", "bad.yaml", "# nothing here\n# at all\n", (1, 1), "syntax",
            "empty document: expected a YAML value"),
        BadInput(
            "binary file (a PNG header)", "bad.yaml",
            raw: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52],
            (1, 1), "syntax", "invalid UTF-8 byte 0x89; spec files must be UTF-8"),
        BadInput(
            "NUL bytes after valid YAML", "bad.yaml", raw: Array("specs: {}\n".utf8) + [0, 0, 0, 0x0A], (2, 1),
            "syntax", "NUL byte: spec files are UTF-8 text, and this looks like a binary file"),
        BadInput(
            "random bytes", "bad.json", raw: randomBytes(count: 4096, seed: 7), (1, 2), "syntax",
            "invalid UTF-8 byte 0xF4; spec files must be UTF-8"),
        // Strings and documents that do not end.
        BadInput(
            "unterminated JSON string", "bad.json", "{\"specs\": {\"badge\": [], \"x\": \"abc}}\n", (1, 30),
            "syntax", "unterminated string: the line ends before its closing quote (write a line break as \\n)"),
        BadInput(
            "unterminated YAML string", "bad.yaml", "specs:\n  badge: [{ type: TextColor, color: \"#FFF }]\n", (3, 1),
            "syntax", "invalid YAML: found unexpected end of stream (while scanning a quoted scalar at bad.yaml:2:37)"),
        BadInput(
            "tab-indented YAML", "bad.yaml", "specs:\n\tbadge: []\n", (2, 1), "syntax",
            "invalid YAML: found character '\\t' that cannot start any token (indent with spaces, not tabs) (while scanning for the next token)"
        ),
        BadInput(
            "two YAML documents", "bad.yaml", "specs: {}\n---\nspecs: {}\n", (2, 1), "syntax",
            "found a second YAML document; a spec file holds exactly one"),
        BadInput(
            "YAML documents with explicit starts", "bad.yaml", "---\nspecs: {}\n---\n", (3, 1), "syntax",
            "found a second YAML document; a spec file holds exactly one"),
        BadInput(
            "undefined YAML alias", "bad.yaml", "specs:\n  badge: *nothing\n", (2, 10), "syntax",
            "invalid YAML: undefined alias '*nothing'"),
    ]

    /// `text` as UTF-16 little-endian bytes, without a byte order mark.
    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// The same bytes every run: a small linear congruential generator, not the system's.
    static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}

extension Array where Element == UInt8 {
    /// Every two bytes swapped: UTF-16 LE to BE.
    var byteSwappedPairs: [UInt8] {
        stride(from: 0, to: count - 1, by: 2).flatMap { [self[$0 + 1], self[$0]] }
    }
}
