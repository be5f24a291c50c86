public import Livery
public import LiveryTesting

/// A trait type of a newer program: a registry that knows it (``registry()``) serves or reads
/// specs that an older program's standard registry does not understand.
public struct Sparkle: Livery.Trait {
    public static let typeName = "Sparkle"
    /// The opacity it sets.
    public var level: Double

    public func apply(to box: StyledBox) throws -> Reversal<StyledBox> {
        let old = box.opacity
        box.opacity = level
        return Reversal { $0.opacity = old }
    }

    /// A fresh registry with the built-ins and `Sparkle`.
    public static func registry() throws -> TraitRegistry {
        let registry = TraitRegistry()
        try registry.register(Sparkle.self)
        return registry
    }
}
