import Yams

/// Reads one YAML document into ``SpecNode``s, using Yams (libyaml) for the syntax and
/// ``YAMLConverter`` for the typing, so scalars follow YAML 1.2's core schema.
///
/// Before Yams sees the text, ``YAMLNestingScan`` refuses documents nested too deep for Yams's
/// recursive composer. Yams's errors become ``SpecError``s with libyaml's 1-based line and column
/// (columns count Unicode scalars, as ours do). An empty document (nothing but blanks and
/// comments) is an error rather than `null`, because no caller wants an empty spec by accident.
enum YAMLReader {
    /// Resolves every plain scalar to ``YAMLConverter/plainTag``. Yams resolves only the keys it
    /// hashes to find duplicates, and its YAML 1.1 rules would make `8` and `"8"` different keys;
    /// with this one a plain key is only ever equal to the same plain key, and the converter,
    /// which sees the tag, still knows the key was plain.
    private static let resolver: Resolver = {
        do {
            return try Resolver.basic.appending(Tag.Name(rawValue: YAMLConverter.plainTag), "^")
        } catch {
            // "^" is a valid pattern; the basic resolver (every key a string) is a safe fallback.
            return .basic
        }
    }()

    /// Parses `text` (already checked to be UTF-8) as one YAML document.
    static func read(_ text: SpecText, limits: ReaderLimits) throws(SpecError) -> SpecNode {
        try YAMLNestingScan.check(text, limits: limits)
        let yaml = String(decoding: text.bytes, as: UTF8.self)
        let root: Node
        switch compose(yaml) {
        case .success(let composed?):
            if mayExpandPastTheLimit(text, limits: limits),
                let mark = YAMLExpansion.overflow(of: composed.root, limits: limits, owner: composed.parser)
            {
                throw SpecError(
                    .limitExceeded, at: SourceLocation(file: text.source, line: mark.line, column: mark.column),
                    YAMLConverter.nodeLimitMessage(limits))
            }
            root = composed.root
        case .success(nil):
            throw SpecError(.syntax, at: .start(of: text.source), "empty document: expected a YAML value")
        case .failure(.duplicatedKeysInMapping(let duplicates, let context)):
            throw duplicateKeyError(key: duplicates.first ?? "", firstMark: context.mark, text: text, limits: limits)
        case .failure(let error):
            throw specError(for: error, in: text, limits: limits)
        }
        var converter = YAMLConverter(source: text.source, limits: limits)
        return try converter.convert(root)
    }

    /// Whether the composed tree could hold more than `limits.maxNodes` values. Without an alias
    /// (no `*` anywhere in the text) every value takes at least one byte of its own, so a text
    /// no longer than the limit cannot pass it, and the tree need not be walked: most specs,
    /// and the walk was a quarter of reading a small one.
    private static func mayExpandPastTheLimit(_ text: SpecText, limits: ReaderLimits) -> Bool {
        text.bytes.count > limits.maxNodes || text.bytes.contains(UInt8(ascii: "*"))
    }

    /// Composes the single document of `yaml`, or `nil` if it has none. The parser comes with
    /// the root because it owns the anchors that the nodes hold weakly.
    static func compose(_ yaml: String) -> Result<(root: Node, parser: Parser)?, YamlError> {
        do {
            // The encoding is explicit: `.default` reads an environment variable and prints.
            let parser = try Parser(yaml: yaml, resolver: resolver, constructor: .default, encoding: .utf8)
            return .success(try parser.singleRoot().map { ($0, parser) })
        } catch let error as YamlError {
            return .failure(error)
        } catch {
            return .failure(.representer(problem: "\(error)"))
        }
    }

    /// The error for two equal keys, naming both places: the first repeat in document order.
    ///
    /// Yams refuses the document and names one repeated key (not always the same one: see
    /// ``YAMLKeyMarkers``). Each round puts a private tag before the key it names and composes
    /// again, until Yams composes the document; then the converter, which reads those tags as
    /// plain keys, finds the first repeat itself, and the places it gives are in the text
    /// without the tags. A key that cannot take a tag (an alias) or a document that keeps
    /// repeating gets the error for the key Yams named.
    private static func duplicateKeyError(key: String, firstMark: Mark, text: SpecText, limits: ReaderLimits) -> SpecError {
        let first = SourceLocation(file: text.source, line: firstMark.line, column: firstMark.column)
        let fallback = SpecError(.duplicateKey, at: first, "duplicate key '\(key)' (it appears again later in this mapping)")
        var markers = YAMLKeyMarkers()
        var mark = firstMark
        for _ in 0..<maximumMarkingRounds {
            guard markers.mark(line: mark.line, column: mark.column, in: text) else { return fallback }
            switch compose(markers.markedText(text)) {
            case .failure(.duplicatedKeysInMapping(_, let context)):
                mark = context.mark
            case .success(let composed?):
                var converter = YAMLConverter(source: text.source, limits: limits, markers: markers)
                do {
                    _ = try converter.convert(composed.root)
                } catch {
                    return error
                }
                return fallback
            default:
                return fallback
            }
        }
        return fallback
    }

    /// Keys marked at most to find a repeat: each round composes the whole document again.
    private static let maximumMarkingRounds = 32
}
