struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: ObjectShape
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        _ = object.add(key.stringValue, required: false)
        return true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Placeholder.value(of: type, recordingInto: object.add(key.stringValue, required: true))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try Placeholder.value(of: type, recordingInto: object.add(key.stringValue, required: false))
    }

    // The standard library's own `decodeIfPresent` for these types asks `decodeNil` first, which
    // answers yes so that optionals are recorded as optional; it would then record no shape.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try Placeholder.value(of: type, recordingInto: object.add(key.stringValue, required: false))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try SchemaRecorder(box: object.add(key.stringValue, required: true)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try SchemaRecorder(box: object.add(key.stringValue, required: true)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { SchemaRecorder(box: ShapeBox()) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        SchemaRecorder(box: object.add(key.stringValue, required: true))
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let element: ShapeBox
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(element: ShapeBox, codingPath: [any CodingKey]) {
        self.element = element
        self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try Placeholder.value(of: type, recordingInto: element)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return try SchemaRecorder(box: element).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try SchemaRecorder(box: element).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { SchemaRecorder(box: element) }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let box: ShapeBox
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { box.shape = .boolean; return false }
    func decode(_ type: String.Type) throws -> String { box.shape = .string; return "x" }
    func decode(_ type: Double.Type) throws -> Double { box.shape = .number; return 1 }
    func decode(_ type: Float.Type) throws -> Float { box.shape = .number; return 1 }
    func decode(_ type: Int.Type) throws -> Int { box.shape = .integer; return 1 }
    func decode(_ type: Int8.Type) throws -> Int8 { box.shape = .integer; return 1 }
    func decode(_ type: Int16.Type) throws -> Int16 { box.shape = .integer; return 1 }
    func decode(_ type: Int32.Type) throws -> Int32 { box.shape = .integer; return 1 }
    func decode(_ type: Int64.Type) throws -> Int64 { box.shape = .integer; return 1 }
    func decode(_ type: UInt.Type) throws -> UInt { box.shape = .integer; return 1 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { box.shape = .integer; return 1 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { box.shape = .integer; return 1 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { box.shape = .integer; return 1 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { box.shape = .integer; return 1 }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Placeholder.value(of: type, recordingInto: box)
    }
}
