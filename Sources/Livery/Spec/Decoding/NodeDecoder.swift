/// Decodes `Decodable` values (traits and their fields) from a ``SpecNode``.
///
/// Two things set it apart from a JSON decoder: every error is located (`file:line:column`) at
/// the node that caused it, and keys that nothing asked for are errors, so a typo in a field
/// name is never silently dropped.
struct NodeDecoder: Decoder {
    let node: SpecNode
    let codingPath: [any CodingKey]
    let usage: KeyUsage
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: SpecNode, codingPath: [any CodingKey] = [], usage: KeyUsage) {
        self.node = node
        self.codingPath = codingPath
        self.usage = usage
    }

    /// Decodes `type` from `node`, then checks that every key in it was read.
    ///
    /// - Parameters:
    ///   - owner: how messages name what is decoded, e.g. "trait CornerRadius".
    ///   - preread: keys of the top mapping that the caller already consumed (such as `type`).
    static func decode<T: Decodable>(
        _ type: T.Type,
        from node: SpecNode,
        owner: String,
        preread: [String] = []
    ) throws(SpecError) -> T {
        let usage = KeyUsage(preread: preread)
        let decoder = NodeDecoder(node: node, usage: usage)
        let value: T
        do {
            value = try T(from: decoder)
        } catch let error as SpecError {
            throw error
        } catch let error as DecodingError {
            // A missing key next to an unknown one that looks like it is a typo: say so.
            if case .keyNotFound(let key, _) = error,
                let typo = usage.unknownKey(resembling: key.stringValue, owner: owner)
            {
                throw typo
            }
            throw DecodingErrorTranslator(root: node, owner: owner).translate(error)
        } catch {
            throw SpecError(.invalidValue, at: node.location, "\(owner): \(error)")
        }
        if let unknown = usage.firstUnknownKey(owner: owner) { throw unknown }
        return value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = node.members else {
            throw typeMismatch(expected: "a mapping", for: [String: Int].self)
        }
        let keys = usage.open(node, members: members, path: codingPath)
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, members: members, used: keys))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let items) = node.value else {
            throw typeMismatch(expected: "a list", for: [Int].self)
        }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        NodeSingleValueContainer(decoder: self)
    }

    /// A decoder for a child node.
    func child(_ node: SpecNode, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], usage: usage)
    }

    func typeMismatch(expected: String, for type: Any.Type) -> DecodingError {
        .typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(node.foundDescription)")
        )
    }
}

/// A coding key made from a string or an index, for paths the containers build.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
