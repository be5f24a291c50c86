/// A message is coded as its list of parts, so that a client can name the places against its
/// own base: `[{"text": "… (first defined at "}, {"file": "a.yaml", "line": 2, "column": 3},
/// {"text": ")"}]`; a whole file is `{"file": "a.yaml"}`.
extension SpecMessage: Codable {
    private enum Key: String, CodingKey {
        case text, file, line, column
    }

    /// Reads the list of parts; a part is words (`text`), a place (`file`, `line`, `column`) or
    /// a whole file (`file` alone).
    public init(from decoder: any Decoder) throws {
        var list = try decoder.unkeyedContainer()
        var parts: [Part] = []
        while !list.isAtEnd {
            let part = try list.nestedContainer(keyedBy: Key.self)
            if let words = try part.decodeIfPresent(String.self, forKey: .text) {
                parts.append(.text(words))
                continue
            }
            let file = try part.decode(String.self, forKey: .file)
            if let line = try part.decodeIfPresent(Int.self, forKey: .line) {
                parts.append(
                    .location(
                        SourceLocation(file: file, line: line, column: try part.decode(Int.self, forKey: .column))))
            } else {
                parts.append(.file(file))
            }
        }
        self.init(parts: parts)
    }

    /// Writes the list of parts.
    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for part in parts {
            var container = list.nestedContainer(keyedBy: Key.self)
            switch part {
            case .text(let words):
                try container.encode(words, forKey: .text)
            case .location(let location):
                try container.encode(location.file, forKey: .file)
                try container.encode(location.line, forKey: .line)
                try container.encode(location.column, forKey: .column)
            case .file(let file):
                try container.encode(file, forKey: .file)
            }
        }
    }
}
