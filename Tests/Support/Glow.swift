public import Livery

/// A lamp: the target of ``Glow``, a trait no built-in registry has.
public final class Lamp {
    /// The glow's radius; 0 is none.
    public var glow = 0.0

    public init() {}
}

/// A program's own trait type, for tests of everything that must decode with the program's
/// registry rather than the standard one.
public struct Glow: Trait {
    public static let typeName = "Glow"
    /// The radius to set.
    public var radius: Double

    public func apply(to lamp: Lamp) throws -> Reversal<Lamp> {
        let old = lamp.glow
        lamp.glow = radius
        return Reversal { $0.glow = old }
    }

    /// A fresh registry with the built-ins and `Glow`.
    public static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(Glow.self)
        return registry
    }
}
