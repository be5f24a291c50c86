/// A font: a family name, a point size and a weight.
///
/// Specs write it as a mapping `{name: Inter, size: 18, weight: semibold}`; `weight` may be left
/// out and then means ``FontWeight/regular``, the weight a font name alone denotes. The name
/// must not be empty and the size must be greater than zero. "System" is the conventional name
/// for the platform's interface font (see ``system(size:weight:)``); Livery only carries the
/// name, and the program that applies a font decides what a name maps to.
public struct Font: Hashable, Sendable {
    /// The family name, such as `"Inter"`, or `"System"` for the platform's interface font.
    public var name: String
    /// The size in points, greater than zero.
    public var size: Double
    /// The weight.
    public var weight: FontWeight

    /// Creates a font; it is regular unless `weight` says otherwise.
    public init(name: String, size: Double, weight: FontWeight = .regular) {
        self.name = name
        self.size = size
        self.weight = weight
    }

    /// The name that stands for the platform's interface font.
    public static let systemName = "System"

    /// The platform's interface font at `size` points.
    public static func system(size: Double, weight: FontWeight = .regular) -> Font {
        Font(name: systemName, size: size, weight: weight)
    }

    /// The interface font at 17 points, regular: the body text size of Apple's platforms, which
    /// the original Traits library targeted.
    public static let `default` = Font.system(size: 17)
}

extension Font: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, size, weight
    }

    /// Decodes `{name, size, weight}`; `name` and `size` are required, `weight` defaults to regular.
    ///
    /// An empty name or a size that is not greater than zero is `DecodingError.dataCorrupted` at
    /// that field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard !name.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .name,
                in: container,
                debugDescription: "font name must not be empty"
            )
        }
        let size = try container.decode(Double.self, forKey: .size)
        guard size > 0, size.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .size,
                in: container,
                debugDescription: "font size must be greater than 0, found \(ValueText.format(size))"
            )
        }
        let weight = try container.decodeIfPresent(FontWeight.self, forKey: .weight) ?? .regular
        self.init(name: name, size: size, weight: weight)
    }

    /// Encodes `{name, size, weight}`, with the weight's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(weight, forKey: .weight)
    }
}
