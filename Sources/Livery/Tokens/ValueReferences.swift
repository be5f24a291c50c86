/// The kinds of reference a token's `$value` holds anywhere inside it, found in one walk: the
/// reader expands `$ref` objects, and the checks follow `{…}` aliases.
struct ValueReferences: OptionSet {
    let rawValue: UInt8

    /// A `{"$ref": …}` object: a JSON Pointer the reader expands.
    static let pointer = ValueReferences(rawValue: 1)
    /// A string `{group.token}`: an alias the checks follow.
    static let alias = ValueReferences(rawValue: 2)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The references `node` holds; the walk stops once it has found both kinds.
    init(of node: SpecNode) {
        self = []
        add(node)
    }

    private mutating func add(_ node: SpecNode) {
        // By index: `contains(where:)` copies each element it passes.
        switch node.value {
        case .string:
            if TokenValue.referencePath(node) != nil { insert(.alias) }
        case .sequence(let items):
            for index in items.indices where self != [.pointer, .alias] { add(items[index]) }
        case .mapping(let members):
            for index in members.indices where self != [.pointer, .alias] {
                if JSONPointerResolver.isReference(members[index].key) { insert(.pointer) }
                add(members[index].value)
            }
        case .null, .bool, .int, .double: break
        }
    }
}
