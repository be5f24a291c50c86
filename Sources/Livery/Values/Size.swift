/// A width and a height, as in a shadow's offset: `{width: 0, height: 2}` or `[0, 2]`.
public struct Size: Hashable, Sendable {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Zero width and height.
    public static let zero = Size(width: 0, height: 0)
}

extension Size: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, height
    }

    /// Decodes `{width: W, height: H}` (both required) or `[W, H]`.
    public init(from decoder: any Decoder) throws {
        let form = try ValueForm<CodingKeys, Never>.read(
            from: decoder,
            for: Size.self,
            expected: "a mapping {width, height} or a list [width, height]"
        )
        switch form {
        case .mapping(let container):
            self.init(
                width: try container.decode(Double.self, forKey: .width),
                height: try container.decode(Double.self, forKey: .height)
            )
        case .list(var container):
            let numbers = try container.decodeNumbers(count: 2, shape: "[width, height]")
            self.init(width: numbers[0], height: numbers[1])
        case .number(let impossible):
            switch impossible {}
        }
    }

    /// Encodes `{width, height}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
    }
}
