/// Range checks shared by the built-in traits' decoders, located at the offending field.
enum Check {
    static func atLeastZero<Key: CodingKey>(
        _ value: Double, _ key: Key, in container: KeyedDecodingContainer<Key>
    ) throws {
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(value) must be at least 0")
        }
    }

    static func unitInterval<Key: CodingKey>(
        _ value: Double, _ key: Key, in container: KeyedDecodingContainer<Key>
    ) throws {
        guard (0...1).contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(value) is out of range 0...1")
        }
    }
}
