/// Sets a target's opacity: `{ type: Opacity, opacity: 0.8 }`.
public struct Opacity: Trait {
    /// `Opacity`.
    public static let typeName = "Opacity"
    /// The opacity, 0…1.
    public var opacity: Double

    /// Creates the trait.
    public init(opacity: Double) { self.opacity = opacity }

    /// Decodes the trait, refusing an opacity outside 0…1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        opacity = try container.decode(Double.self, forKey: .opacity)
        try Check.unitInterval(opacity, .opacity, in: container)
    }

    /// Sets the opacity; the reversal puts the old one back.
    public func apply(to target: any HasOpacity) throws -> Reversal<any HasOpacity> {
        let old = target.opacity
        target.opacity = opacity
        return Reversal { $0.opacity = old }
    }
}
