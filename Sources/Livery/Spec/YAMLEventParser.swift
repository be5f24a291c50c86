import CLibYAML

/// One event of libyaml's parser, with what the reader needs copied out of it.
enum YAMLEvent {
    /// The start of a collection: `[`, `{`, or the first item or key of a block one.
    case collectionStart(isMapping: Bool, tag: String?, anchor: String?, line: Int, column: Int)
    /// The end of the innermost open collection.
    case collectionEnd
    /// A scalar, with its anchor if it has one.
    case scalar(YAMLScalar, anchor: String?, line: Int, column: Int)
    /// `*name`.
    case alias(String, line: Int, column: Int)
    /// The start of a document after the first one's end (`---` again).
    case documentStart(line: Int, column: Int)
    /// The end of the input.
    case streamEnd
}

/// libyaml's event parser (Debian's `libyaml-dev`) over borrowed UTF-8 bytes.
///
/// libyaml keeps its own explicit stacks, so no nesting in the text can exhaust the caller's
/// stack; the reader stops at the depth limit long before the parser's memory matters. Lines and
/// columns come out 1-based, columns counted in Unicode scalars as libyaml counts them.
struct YAMLEventParser: ~Copyable {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let text: SpecText

    /// Prepares to parse `text`, which must stay valid while this parser lives.
    init(_ text: SpecText) {
        self.text = text
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        // The bytes are checked UTF-8 already; saying so skips libyaml's guess from the first bytes.
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        // libyaml wants a non-null pointer even for no bytes.
        let empty: StaticString = ""
        yaml_parser_set_input_string(parser, text.bytes.baseAddress ?? empty.utf8Start, text.bytes.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    /// The next event the reader acts on; stream and document starts of the first document and
    /// every document end are skipped, since one document is all a spec file holds.
    mutating func next() throws(SpecError) -> YAMLEvent {
        while true {
            guard yaml_parser_parse(parser, event) == 1 else {
                throw YAMLReader.syntaxError(of: parser.pointee, in: text)
            }
            defer { yaml_event_delete(event) }
            let line = Int(event.pointee.start_mark.line) + 1
            let column = Int(event.pointee.start_mark.column) + 1
            switch event.pointee.type {
            case YAML_SCALAR_EVENT:
                let data = event.pointee.data.scalar
                let scalar = YAMLScalar(
                    text: String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self),
                    tag: Self.string(data.tag), isPlain: data.style == YAML_PLAIN_SCALAR_STYLE)
                return .scalar(scalar, anchor: Self.string(data.anchor), line: line, column: column)
            case YAML_SEQUENCE_START_EVENT:
                let data = event.pointee.data.sequence_start
                return .collectionStart(
                    isMapping: false, tag: Self.string(data.tag), anchor: Self.string(data.anchor), line: line,
                    column: column)
            case YAML_MAPPING_START_EVENT:
                let data = event.pointee.data.mapping_start
                return .collectionStart(
                    isMapping: true, tag: Self.string(data.tag), anchor: Self.string(data.anchor), line: line,
                    column: column)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                return .collectionEnd
            case YAML_ALIAS_EVENT:
                return .alias(Self.string(event.pointee.data.alias.anchor) ?? "", line: line, column: column)
            case YAML_DOCUMENT_START_EVENT where documentsStarted > 0:
                return .documentStart(line: line, column: column)
            case YAML_DOCUMENT_START_EVENT:
                documentsStarted += 1
            case YAML_STREAM_END_EVENT, YAML_NO_EVENT:
                return .streamEnd
            default:
                // The stream start and document ends.
                continue
            }
        }
    }

    private var documentsStarted = 0

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
