/// The kinds of reference a token's `$value` holds anywhere inside it, found in one walk: the
/// reader expands `$ref` objects, and the checks follow `{…}` aliases and end a chain of them
/// at a value that holds none of the references a variable can hold.
struct ValueReferences: OptionSet {
    let rawValue: UInt8

    /// A `{"$ref": …}` object: a JSON Pointer the reader expands.
    static let pointer = ValueReferences(rawValue: 1)
    /// A string `{group.token}`: an alias the checks follow.
    static let alias = ValueReferences(rawValue: 2)
    /// A string that starts as a variable's reference or function does (`@`, `~`).
    static let variable = ValueReferences(rawValue: 4)

    private static let every: ValueReferences = [.pointer, .alias, .variable]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The references `node` holds; the walk stops once it has found every kind.
    init(of node: SpecNode) {
        self = []
        add(node)
    }

    private mutating func add(_ node: SpecNode) {
        // By index: `contains(where:)` copies each element it passes.
        switch node.value {
        case .string(let text):
            if TokenValue.referencePath(node) != nil {
                insert(.alias)
            } else if text.utf8.first == UInt8(ascii: "@") || text.utf8.first == UInt8(ascii: "~") {
                insert(.variable)
            }
        case .sequence(let items):
            for index in items.indices where self != Self.every { add(items[index]) }
        case .mapping(let members):
            for index in members.indices where self != Self.every {
                if JSONPointerResolver.isReference(members[index].key) { insert(.pointer) }
                add(members[index].value)
            }
        case .null, .bool, .int, .double: break
        }
    }
}
