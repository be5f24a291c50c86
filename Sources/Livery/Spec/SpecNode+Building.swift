extension SpecNode {
    /// The place of nodes built in code rather than read from a document.
    package static let built = SourceLocation.start(of: "<built>")

    /// A mapping of `fields`, in order, every key placed at `location`.
    package static func object(_ fields: [(String, SpecNode)], at location: SourceLocation = built) -> SpecNode {
        SpecNode(.mapping(fields.map { Member(key: $0.0, keyLocation: location, value: $0.1) }), at: location)
    }

    /// A string node.
    package static func text(_ string: String, at location: SourceLocation = built) -> SpecNode {
        SpecNode(.string(string), at: location)
    }
}
