/// A parsed value of a spec document, with the place it came from.
///
/// YAML and JSON read into this one model, so everything after parsing (includes, references,
/// themes, trait decoding, error messages) has one code path. Scalars are typed as YAML 1.2's
/// core schema types them: a quoted scalar is always a string, and `yes`/`no` are strings.
public struct SpecNode: Sendable, CustomStringConvertible {
    /// A key and its value in a mapping, in document order.
    public struct Member: Sendable {
        /// The key.
        public var key: String
        /// Where the key is.
        public var keyLocation: SourceLocation
        /// The value.
        public var value: SpecNode

        /// Creates a member.
        public init(key: String, keyLocation: SourceLocation, value: SpecNode) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// The value of a node.
    public enum Value: Sendable {
        /// `null`, `~` or an empty plain scalar.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// An integer that fits in `Int`.
        case int(Int)
        /// Any other finite number.
        case double(Double)
        /// A string.
        case string(String)
        /// A list.
        case sequence([SpecNode])
        /// A mapping with string keys, in document order, without duplicates.
        case mapping([Member])
    }

    /// The node's value.
    public var value: Value
    /// Where the node starts.
    public var location: SourceLocation

    /// Creates a node.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// A short name of the node's kind, for messages: "a string", "a mapping", …
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// What the node is, with its value when it is short, for "expected …, found …" messages.
    public var foundDescription: String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .int(let int): "the number \(int)"
        case .double(let double): "the number \(double)"
        case .string(let string) where string.count <= 40: "the string '\(string)'"
        default: kindDescription
        }
    }

    /// The members, if the node is a mapping.
    public var members: [Member]? {
        if case .mapping(let members) = value { return members }
        return nil
    }

    /// The members, moved out of the node, which is left null: held by no one else, they can
    /// be changed in place and are freed where they are dropped.
    mutating func takeMembers() -> [Member]? {
        guard case .mapping(let members) = value else { return nil }
        value = .null
        return members
    }

    /// The node, moved out: this one is left null where it was.
    mutating func take() -> SpecNode {
        let taken = self
        value = .null
        return taken
    }

    /// The string, if the node is a string.
    public var string: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The value of `key`, if the node is a mapping that has it.
    public subscript(key: String) -> SpecNode? {
        members?.first { $0.key == key }?.value
    }

    /// Whether two nodes hold the same content, wherever they are in the source.
    public func hasSameContent(as other: SpecNode) -> Bool {
        switch (value, other.value) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.sequence(let a), .sequence(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.hasSameContent(as: $1) }
        case (.mapping(let a), .mapping(let b)):
            a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.hasSameContent(as: $1.value) }
        default: false
        }
    }

    /// The node as compact JSON.
    public var description: String { canonicalJSON }
}
