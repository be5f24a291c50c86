import Livery

/// Something that can glow: a lamp in a game, a highlight in a UI.
public protocol Glowing: AnyObject {
    /// The glow's radius in points; 0 is no glow.
    var glowRadius: Double { get set }
    /// The glow's colour.
    var glowColor: Color { get set }
}

/// The team's own trait: a glow of some radius and colour.
public struct Glow: Trait {
    /// The name specs use: `{ type: Glow, radius: 6, color: "#FFD60A" }`.
    public static let typeName = "Glow"
    /// The radius in points.
    public var radius: Double
    /// The colour; unchanged when left out.
    public var color: Color?

    /// Sets the glow and returns what puts the previous one back.
    public func apply(to target: any Glowing) throws -> Reversal<any Glowing> {
        let (oldRadius, oldColor) = (target.glowRadius, target.glowColor)
        target.glowRadius = radius
        if let color { target.glowColor = color }
        return Reversal { target in
            target.glowRadius = oldRadius
            target.glowColor = oldColor
        }
    }
}

extension TraitRegistry {
    /// The built-in traits and ``Glow``: what this team's programs and its `livery` read specs with.
    public static func lighting() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(Glow.self)
        return registry
    }
}
