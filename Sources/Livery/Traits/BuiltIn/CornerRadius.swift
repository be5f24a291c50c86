/// Rounds a target's corners: `{ type: CornerRadius, radius: 8 }`.
public struct CornerRadius: Trait {
    /// `CornerRadius`.
    public static let typeName = "CornerRadius"
    /// The radius, at least 0.
    public var radius: Double

    /// Creates the trait.
    public init(radius: Double) { self.radius = radius }

    /// Decodes the trait, refusing a negative radius.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        radius = try container.decode(Double.self, forKey: .radius)
        try Check.atLeastZero(radius, .radius, in: container)
    }

    /// Sets the radius; the reversal puts the old one back.
    public func apply(to target: any HasCornerRadius) throws -> Reversal<any HasCornerRadius> {
        let old = target.cornerRadius
        target.cornerRadius = radius
        return Reversal { $0.cornerRadius = old }
    }
}
