/// A position in a target's coordinate space: `{x: 10, y: 20}` or `[10, 20]`.
public struct Point: Hashable, Sendable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, x and y zero.
    public static let zero = Point(x: 0, y: 0)
}

extension Point: Codable {
    private enum CodingKeys: String, CodingKey {
        case x, y
    }

    /// Decodes `{x: X, y: Y}` (both required) or `[X, Y]`.
    public init(from decoder: any Decoder) throws {
        let form = try ValueForm<CodingKeys, Never>.read(
            from: decoder,
            for: Point.self,
            expected: "a mapping {x, y} or a list [x, y]"
        )
        switch form {
        case .mapping(let container):
            self.init(
                x: try container.decode(Double.self, forKey: .x),
                y: try container.decode(Double.self, forKey: .y)
            )
        case .list(var container):
            let numbers = try container.decodeNumbers(count: 2, shape: "[x, y]")
            self.init(x: numbers[0], y: numbers[1])
        case .number(let impossible):
            switch impossible {}
        }
    }

    /// Encodes `{x, y}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
    }
}
