/// How a geometry value is written in a document: a mapping, a list, or (for ``Insets``) a
/// single number.
///
/// Decoders offer no "what kind of node is this" query, so the forms are tried in order, and
/// only the error that means "not this kind of node" (`typeMismatch`, or `valueNotFound` for
/// null) moves on to the next form. Once a form is chosen, errors inside it (a missing field, a
/// field of the wrong type) propagate unchanged, so they point at the field, not at the value.
///
/// `Number` is `Double` where a single number is a valid form and `Never` where it is not, so a
/// type that takes no number has no number case to handle.
enum ValueForm<Key: CodingKey, Number> {
    /// `{width: 0, height: 2}`: the caller decodes each field, so the spec decoder sees which
    /// keys were read and reports the others as unknown.
    case mapping(KeyedDecodingContainer<Key>)
    /// `[0, 2]`.
    case list(any UnkeyedDecodingContainer)
    /// `8`, when the type accepts a single number.
    case number(Number)

    /// The form `decoder` holds, trying a mapping, a list, then (if `readNumber` is given) a number.
    ///
    /// - Parameters:
    ///   - type: The type being decoded, named in the error when no form fits.
    ///   - expected: The forms, for the error: `a mapping {x, y} or a list [x, y]`.
    ///   - readNumber: Reads the single-number form, or `nil` when there is none.
    fileprivate static func read(
        from decoder: any Decoder,
        for type: Any.Type,
        expected: String,
        readNumber: ((any Decoder) throws -> Number)?
    ) throws -> ValueForm {
        // The first mismatch describes the node as the decoder saw it; keep it as the cause.
        var firstMismatch: DecodingError?
        do {
            return .mapping(try decoder.container(keyedBy: Key.self))
        } catch let error as DecodingError where isWrongKind(error) {
            firstMismatch = error
        }
        do {
            return .list(try decoder.unkeyedContainer())
        } catch let error as DecodingError where isWrongKind(error) {
            firstMismatch = firstMismatch ?? error
        }
        if let readNumber {
            do {
                return .number(try readNumber(decoder))
            } catch let error as DecodingError where isWrongKind(error) {
                firstMismatch = firstMismatch ?? error
            }
        }
        let context = DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "expected \(expected)",
            underlyingError: firstMismatch
        )
        if case .valueNotFound = firstMismatch {
            throw DecodingError.valueNotFound(type, context)
        }
        throw DecodingError.typeMismatch(type, context)
    }

    /// Whether `error` says the node is not of the kind asked for, rather than something wrong
    /// inside it.
    private static func isWrongKind(_ error: DecodingError) -> Bool {
        switch error {
        case .typeMismatch, .valueNotFound: true
        default: false
        }
    }
}

extension ValueForm where Number == Never {
    /// The form `decoder` holds: a mapping or a list.
    static func read(from decoder: any Decoder, for type: Any.Type, expected: String) throws -> ValueForm {
        try read(from: decoder, for: type, expected: expected, readNumber: nil)
    }
}

extension ValueForm where Number == Double {
    /// The form `decoder` holds: a mapping, a list or a single number.
    static func read(from decoder: any Decoder, for type: Any.Type, expected: String) throws -> ValueForm {
        try read(from: decoder, for: type, expected: expected) { try $0.singleValueContainer().decode(Double.self) }
    }
}

extension UnkeyedDecodingContainer {
    /// Exactly `count` numbers, the rest of the list; `shape` names them for errors:
    /// `[width, height]`.
    ///
    /// A list of another length is an error, never truncated or padded: a third number would
    /// otherwise be silently dropped.
    mutating func decodeNumbers(count: Int, shape: String) throws -> [Double] {
        // The error concerns the whole list, so it carries the list's path; the standard
        // `dataCorruptedError(in:)` would add the current index and point at the first element.
        let mismatch = { [codingPath] (found: String) in
            DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "expected a list of \(count) numbers \(shape), found \(found)"
                )
            )
        }
        if let actual = self.count, actual != count {
            throw mismatch(String(actual))
        }
        var numbers: [Double] = []
        while numbers.count < count {
            guard !isAtEnd else {
                throw mismatch(String(numbers.count))
            }
            numbers.append(try decode(Double.self))
        }
        guard isAtEnd else {
            throw mismatch("more")
        }
        return numbers
    }
}
