/// The keyed container of ``NodeDecoder``: a mapping node, recording the keys asked of it.
struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let members: [SpecNode.Member]
    let used: KeyUsage.Opened

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool {
        members.contains { $0.key == key.stringValue }
    }

    private func member(_ key: Key) -> SpecNode? {
        used.ask(key.stringValue)
        return members.first { $0.key == key.stringValue }?.value
    }

    private func childDecoder(_ key: Key) throws -> NodeDecoder {
        guard let node = member(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "missing key '\(key.stringValue)'")
            )
        }
        return decoder.child(node, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let node = member(key) else { return true }
        if case .null = node.value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try NodeSingleValueContainer(decoder: childDecoder(key)).decode(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = member(key) else { return nil }
        if case .null = node.value { return nil }
        return try NodeSingleValueContainer(decoder: decoder.child(node, key: key)).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try childDecoder(key)
    }
}
