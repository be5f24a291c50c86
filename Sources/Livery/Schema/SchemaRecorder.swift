/// A decoder that answers every question a type's `init(from:)` asks with a placeholder and
/// writes down the questions: which keys, of which types, required or not. That is the shape
/// of the type's entry in a spec, so a JSON Schema can be generated for any trait, custom ones
/// included, without each trait describing itself twice.
struct SchemaRecorder: Decoder {
    let box: ShapeBox
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The shape `T` decodes from.
    static func shape<T: Decodable>(of type: T.Type) -> Shape {
        if let known = KnownShapes.shape(of: type) { return known }
        let box = ShapeBox()
        // Types that validate their fields may still refuse the placeholders; the keys asked
        // before that are what the shape needs.
        _ = try? T(from: SchemaRecorder(box: box))
        return box.shape
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object = ObjectShape()
        box.shape = .object(object)
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = ShapeBox()
        box.shape = .array(element)
        return RecordingUnkeyedContainer(element: element, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(box: box, codingPath: codingPath)
    }
}

/// What a value looks like in a spec.
indirect enum Shape {
    case unknown
    case boolean, integer, number, string
    case array(ShapeBox)
    case object(ObjectShape)
    /// A schema written by hand for a value type with several spellings (colours, sizes), and
    /// the kind of value Livery Studio edits it as (`color`, `size`).
    case literal(String, kind: String)
}

final class ShapeBox {
    var shape: Shape = .unknown
}

final class ObjectShape {
    var properties: [(name: String, shape: ShapeBox, required: Bool)] = []

    func add(_ name: String, required: Bool) -> ShapeBox {
        if let index = properties.firstIndex(where: { $0.name == name }) {
            properties[index].required = properties[index].required || required
            return properties[index].shape
        }
        let box = ShapeBox()
        properties.append((name, box, required))
        return box
    }
}

/// A placeholder value for a type the recorder is asked for: 1 passes the built-ins' range checks.
enum Placeholder {
    static func value<T: Decodable>(of type: T.Type, recordingInto box: ShapeBox) throws -> T {
        if let known = KnownShapes.shape(of: type) {
            box.shape = known
            if let value = KnownShapes.placeholder(of: type) { return value }
        }
        return try T(from: SchemaRecorder(box: box))
    }
}
