/// Records property changes on a target and builds the ``Reversal`` that undoes exactly them,
/// newest first. For traits whose fields are optional ("nil: leave unchanged"):
///
/// ```swift
/// func apply(to target: any HasBorder) throws -> Reversal<any HasBorder> {
///     Reversal.setting(target) { changes in
///         changes.set(\.borderColor, to: color)
///         changes.set(\.borderWidth, to: width)
///     }
/// }
/// ```
public struct PropertyChanges<Target> {
    let target: Target
    var reversal = Reversal<Target>.none

    /// Sets the property when `value` is not nil, remembering the old value; does nothing for nil.
    public mutating func set<Value>(_ property: ReferenceWritableKeyPath<Target, Value>, to value: Value?) {
        guard let value else { return }
        let old = target[keyPath: property]
        target[keyPath: property] = value
        reversal = Reversal { $0[keyPath: property] = old }.followed(by: reversal)
    }
}

extension Reversal {
    /// Applies the changes `body` makes to `target` and returns their reversal.
    public static func setting(_ target: Target, _ body: (inout PropertyChanges<Target>) -> Void) -> Reversal {
        var changes = PropertyChanges(target: target)
        body(&changes)
        return changes.reversal
    }
}
