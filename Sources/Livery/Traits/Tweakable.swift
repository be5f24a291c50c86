/// A target whose properties the generic ``SetTrait`` (`type: Set`) may tune, by name.
///
/// List the properties once, as a table from the names used in specs to writable key paths:
///
/// ```swift
/// final class RetryPolicy: Tweakable {
///     var attempts = 3
///     var timeout = 1.5
///     static let tweakables: [String: Tweak<RetryPolicy>] = [
///         "attempts": .keyPath(\.attempts),
///         "timeout": .keyPath(\.timeout),
///     ]
/// }
/// ```
///
/// A spec then writes `{ type: Set, values: { attempts: 5, timeout: 2.5 } }`. Each value is
/// decoded into its key path's own type, so `attempts: 2.5` or `timeout: "fast"` is an error,
/// never a silent conversion.
public protocol Tweakable: AnyObject {
    /// The tunable properties, by the names specs use.
    static var tweakables: [String: Tweak<Self>] { get }
}

/// One tunable property of a ``Tweakable`` type.
public struct Tweak<Root: AnyObject>: Sendable {
    /// The property's Swift type, for messages and the schema.
    public let valueType: String
    let assign: @Sendable (Root, SpecNode, String) throws(SpecError) -> Reversal<Root>

    /// A property reached through a writable key path; values decode into `Value`.
    public static func keyPath<Value: Decodable & Sendable>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) -> Tweak<Root> {
        Tweak(valueType: String(describing: Value.self)) { (root, node, owner) throws(SpecError) in
            let value = try NodeDecoder.decode(Value.self, from: node, owner: owner)
            let old = root[keyPath: keyPath]
            root[keyPath: keyPath] = value
            return Reversal { $0[keyPath: keyPath] = old }
        }
    }
}
