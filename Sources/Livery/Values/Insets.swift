/// Distances inward from each edge of a rectangle, as in padding or margins.
///
/// Written as a mapping `{top: 8, left: 16, bottom: 8, right: 16}`, a list in the same order
/// `[8, 16, 8, 16]` (top, left, bottom, right, as UIKit's edge insets order them; note that CSS
/// uses top, right, bottom, left), or a single number for all four edges.
public struct Insets: Hashable, Sendable {
    /// The inset from the top edge.
    public var top: Double
    /// The inset from the left edge.
    public var left: Double
    /// The inset from the bottom edge.
    public var bottom: Double
    /// The inset from the right edge.
    public var right: Double

    /// Creates insets from the four edges.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four edges.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No inset on any edge.
    public static let zero = Insets(all: 0)
}

extension Insets: Codable {
    private enum CodingKeys: String, CodingKey {
        case top, left, bottom, right
    }

    /// Decodes `{top, left, bottom, right}` (all four required), `[top, left, bottom, right]`, or
    /// a single number for all four edges.
    public init(from decoder: any Decoder) throws {
        let form = try ValueForm<CodingKeys, Double>.read(
            from: decoder,
            for: Insets.self,
            expected: "a mapping {top, left, bottom, right}, a list [top, left, bottom, right] or a single number"
        )
        switch form {
        case .mapping(let container):
            self.init(
                top: try container.decode(Double.self, forKey: .top),
                left: try container.decode(Double.self, forKey: .left),
                bottom: try container.decode(Double.self, forKey: .bottom),
                right: try container.decode(Double.self, forKey: .right)
            )
        case .list(var container):
            let numbers = try container.decodeNumbers(count: 4, shape: "[top, left, bottom, right]")
            self.init(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3])
        case .number(let inset):
            self.init(all: inset)
        }
    }

    /// Encodes `{top, left, bottom, right}`, the form that reads unambiguously.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(top, forKey: .top)
        try container.encode(left, forKey: .left)
        try container.encode(bottom, forKey: .bottom)
        try container.encode(right, forKey: .right)
    }
}
