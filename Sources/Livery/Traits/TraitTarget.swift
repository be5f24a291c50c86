/// A class whose properties a ``PropertyTrait`` sets. Every capability protocol refines it; it
/// asks nothing of its own.
public protocol TraitTarget: AnyObject {}

extension TraitTarget {
    /// How a ``PropertyTrait`` reaches one property of this class, through its capability
    /// protocol: `($0 as? any HasCornerRadius.Type)?.binding { swap(&$0.cornerRadius, &$1) }`.
    ///
    /// Called on the capability's metatype, so `Self` is the object's own class and `exchange`
    /// calls the property's accessors directly: one access that reads the old value and writes
    /// the new one. (A key path does the same work through the runtime's key path projection,
    /// about ten times the cost: see Benchmarks/README.md, figure 4.)
    public static func binding<Value: PropertyValueConvertible>(
        _ exchange: @escaping (Self, inout Value) -> Void
    ) -> PropertyBinding {
        Value.binding(exactly: Self.self, as: Self.self, exchange)
    }
}
