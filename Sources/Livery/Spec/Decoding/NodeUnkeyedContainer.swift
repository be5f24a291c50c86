/// The unkeyed container of ``NodeDecoder``: a list node.
struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [SpecNode]
    private(set) var currentIndex = 0

    init(decoder: NodeDecoder, items: [SpecNode]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(_ type: Any.Type) throws -> NodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath, debugDescription: "expected more items in the list (it has \(items.count))")
            )
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: AnyCodingKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex].value else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try NodeSingleValueContainer(decoder: next(type)).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Int].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Int].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Any.self)
    }
}
