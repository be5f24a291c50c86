/// A class whose properties a ``PropertyTrait`` sets. Every capability protocol refines it; it
/// asks nothing of its own.
public protocol TraitTarget: AnyObject {}

extension TraitTarget {
    /// How a ``PropertyTrait`` reaches one property of this class, through its capability
    /// protocol, from a function generic over the capability:
    ///
    /// ```swift
    /// func binding(_ target: (some HasCornerRadius).Type) -> PropertyBinding {
    ///     target.binding { swap(&$0.cornerRadius, &$1) } assign: { $0.cornerRadius = $1 }
    /// }
    /// return ($0 as? any HasCornerRadius.Type).map { binding($0) }
    /// ```
    ///
    /// Called on the class itself, `Self` is the object's own class and both closures call the
    /// property's accessors directly. (Called on the existential metatype,
    /// `($0 as? any HasCornerRadius.Type)?.binding { … }`, the closures take `any HasCornerRadius`,
    /// and every call goes through a thunk that converts the class to it: the same result, about
    /// 25 more instructions per property switched; see Benchmarks/README.md, figure 4.)
    ///
    /// An apply `exchange`s: one access that reads the old value and writes the new one. An undo
    /// `assign`s the old value back: one plain write, which the runtime's exclusivity check passes
    /// for less than an exchange, whose access spans a read and a write. (`assign` is given its
    /// value `inout` only so that the closure, written for the concrete property type, is called
    /// without a conversion to the generic one. A key path does the same work through the
    /// runtime's key path projection, about ten times the cost: see Benchmarks/README.md,
    /// figure 4.)
    public static func binding<Value: PropertyValueConvertible>(
        _ exchange: @escaping (Self, inout Value) -> Void, assign: @escaping (Self, inout Value) -> Void
    ) -> PropertyBinding {
        Value.binding(exactly: Self.self, as: Self.self, exchange: exchange, assign: assign)
    }
}
