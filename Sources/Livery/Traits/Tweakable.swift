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
///
/// A key path is the shortest declaration; a property that one load sets on many objects is
/// cheaper declared by two closures, which the provider calls without the runtime's key path
/// projection: `"attempts": .property { swap(&$0.attempts, &$1) } assign: { $0.attempts = $1 }`.
public protocol Tweakable: AnyObject {
    /// The tunable properties, by the names specs use.
    static var tweakables: [String: Tweak<Self>] { get }
}

/// One tunable property of a ``Tweakable`` type.
public struct Tweak<Root: AnyObject>: Sendable {
    /// The property's Swift type, for messages and the schema.
    public let valueType: String
    let assign: @Sendable (Root, SpecNode, String) throws(SpecError) -> Reversal<Root>
    /// How the provider's fast path sets the property on objects of exactly a class (`Root` or a
    /// subclass); nil for a type no ``PropertyValue`` holds, which `Set` applies through `assign`.
    let binding: (@Sendable (AnyClass) -> PropertyBinding?)?

    /// A property reached through a writable key path; values decode into `Value`.
    public static func keyPath<Value: Decodable & Sendable>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) -> Tweak<Root> {
        Tweak(valueType: String(describing: Value.self), assign: assign(keyPath), binding: nil)
    }

    /// A property reached through a writable key path, of a type a ``PropertyValue`` holds
    /// (`Double`, `Int`, `String`, `Bool`, …): values decode into `Value`, and the provider sets
    /// it on its fast path, each access through the runtime's key path projection.
    public static func keyPath<Value: Decodable & PropertyValueConvertible>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) -> Tweak<Root> {
        property {
            swap(&$0[keyPath: keyPath], &$1)
        } assign: {
            $0[keyPath: keyPath] = $1
        }
    }

    /// A property reached through two closures, of a type a ``PropertyValue`` holds: `exchange`
    /// swaps the property with the value it is given (how `Set` applies), `assign` sets it (how
    /// it is undone). Values decode into `Value`, and the provider sets it on its fast path at
    /// the cost of the property's own accessors:
    /// `.property { swap(&$0.attempts, &$1) } assign: { $0.attempts = $1 }`.
    public static func property<Value: Decodable & PropertyValueConvertible>(
        _ exchange: @escaping @Sendable (Root, inout Value) -> Void,
        assign: @escaping @Sendable (Root, inout Value) -> Void
    ) -> Tweak<Root> {
        Tweak(
            valueType: String(describing: Value.self),
            assign: { (root, node, owner) throws(SpecError) in
                var value = try NodeDecoder.decode(Value.self, from: node, owner: owner)
                exchange(root, &value)
                let old = value
                return Reversal {
                    var old = old
                    assign($0, &old)
                }
            },
            binding: { Value.binding(exactly: $0, on: Root.self, exchange: exchange, assign: assign) })
    }

    private static func assign<Value: Decodable & Sendable>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable
    ) -> @Sendable (Root, SpecNode, String) throws(SpecError) -> Reversal<Root> {
        { (root, node, owner) throws(SpecError) in
            let value = try NodeDecoder.decode(Value.self, from: node, owner: owner)
            let old = root[keyPath: keyPath]
            root[keyPath: keyPath] = value
            return Reversal { $0[keyPath: keyPath] = old }
        }
    }
}

extension Tweakable {
    /// The fast-path binding of the tweakable property `name` on objects of exactly `type`; nil
    /// where `name` is not listed or its type has none.
    static func binding(named name: String, exactly type: AnyClass) -> PropertyBinding? {
        tweakables[name]?.binding?(type)
    }
}
