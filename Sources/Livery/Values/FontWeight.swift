/// The weight of a font, from `ultraLight` to `black`.
///
/// Specs write it as a name (`bold`, in any case) or as a CSS-style number 100...900 in steps of
/// 100 (`700`); it encodes as its name.
public enum FontWeight: String, CaseIterable, Sendable {
    /// 100.
    case ultraLight
    /// 200.
    case thin
    /// 300.
    case light
    /// 400, the weight of body text.
    case regular
    /// 500.
    case medium
    /// 600.
    case semibold
    /// 700.
    case bold
    /// 800.
    case heavy
    /// 900.
    case black

    /// The CSS-style number: 100 for ``ultraLight`` … 400 for ``regular`` … 900 for ``black``.
    public var numericValue: Int {
        switch self {
        case .ultraLight: 100
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }

    /// The weight with the CSS-style number `value` (100, 200, … 900), or `nil` for any other.
    public init?(numericValue value: Int) {
        guard let weight = Self.allCases.first(where: { $0.numericValue == value }) else { return nil }
        self = weight
    }

    /// Reads a weight name in any case (`bold`, `SemiBold`) or a number `100`...`900` in steps of 100.
    public init(parsing text: String) throws(ValueError) {
        if let weight = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            self = weight
        } else if let number = ValueText.decimal(text[...]) {
            self = try Self.weight(number: number)
        } else {
            throw ValueError("unknown font weight '\(text)': \(Self.expected)")
        }
    }

    /// The accepted spellings, for error messages.
    static let expected =
        "expected one of \(allCases.map(\.rawValue).joined(separator: ", ")) or a number 100...900 in steps of 100"

    /// The weight with the number `number`, or an error naming the accepted numbers.
    private static func weight(number: Double) throws(ValueError) -> FontWeight {
        guard number.rounded() == number, abs(number) <= 1e6, let weight = FontWeight(numericValue: Int(number))
        else {
            throw ValueError("unknown font weight \(ValueText.format(number)): \(expected)")
        }
        return weight
    }
}

extension FontWeight: Codable {
    /// Decodes a weight name (any case) or a number 100...900 in steps of 100.
    ///
    /// An unknown name or number is `DecodingError.dataCorrupted` listing the accepted weights; a
    /// value that is neither a string nor a number is `typeMismatch`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = try Self.decodeWeight(from: container, codingPath: decoder.codingPath)
        } catch let error as ValueError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// A name or a number from `container`: a ``ValueError`` for an unknown weight, a
    /// `DecodingError` for a value of another type.
    private static func decodeWeight(
        from container: any SingleValueDecodingContainer,
        codingPath: [any CodingKey]
    ) throws -> FontWeight {
        let text: String
        do {
            text = try container.decode(String.self)
        } catch DecodingError.typeMismatch {
            let number: Double
            do {
                number = try container.decode(Double.self)
            } catch let error as DecodingError {
                guard case .typeMismatch = error else { throw error }
                let context = DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "expected a font weight name or number: \(expected)",
                    underlyingError: error
                )
                throw DecodingError.typeMismatch(FontWeight.self, context)
            }
            return try weight(number: number)
        }
        return try FontWeight(parsing: text)
    }

    /// Encodes the weight's name, such as `"semibold"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
