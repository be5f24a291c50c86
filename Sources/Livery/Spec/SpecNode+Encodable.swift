extension SpecNode: Encodable {
    /// Encodes the node's content (not its location) as plain values.
    public func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .int(let int):
            var container = encoder.singleValueContainer()
            try container.encode(int)
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .sequence(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .mapping(let members):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in members {
                try container.encode(member.value, forKey: AnyCodingKey(stringValue: member.key))
            }
        }
    }
}
