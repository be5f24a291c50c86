/// The single-value container of ``NodeDecoder``: scalars are typed strictly (a quoted "8" is
/// not a number, 2.5 is not an integer, only finite numbers exist).
struct NodeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var node: SpecNode { decoder.node }

    func decodeNil() -> Bool {
        if case .null = node.value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = node.value else { throw mismatch("true or false", type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = node.value else { throw mismatch("a string", type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch node.value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch("a number", type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float {
        let double = try decode(Double.self)
        let float = Float(double)
        guard float.isFinite else {
            throw corrupted("number \(double) is out of range for Float")
        }
        return float
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Route scalars through the strict paths above; everything else decodes itself.
        if let scalar = try decodeScalar(type) { return scalar }
        return try T(from: decoder)
    }

    /// The scalar, if `type` is one of the scalar types. Matched by identity: this runs for
    /// every field of every trait, usually unspecialised, where a chain of `is` casts would
    /// cost a dynamic cast each.
    private func decodeScalar<T: Decodable>(_ type: T.Type) throws -> T? {
        let value: Any
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Double.self): value = try decode(Double.self)
        case ObjectIdentifier(String.self): value = try decode(String.self)
        case ObjectIdentifier(Bool.self): value = try decode(Bool.self)
        case ObjectIdentifier(Int.self): value = try decode(Int.self)
        case ObjectIdentifier(Float.self): value = try decode(Float.self)
        case ObjectIdentifier(Int8.self): value = try decode(Int8.self)
        case ObjectIdentifier(Int16.self): value = try decode(Int16.self)
        case ObjectIdentifier(Int32.self): value = try decode(Int32.self)
        case ObjectIdentifier(Int64.self): value = try decode(Int64.self)
        case ObjectIdentifier(UInt.self): value = try decode(UInt.self)
        case ObjectIdentifier(UInt8.self): value = try decode(UInt8.self)
        case ObjectIdentifier(UInt16.self): value = try decode(UInt16.self)
        case ObjectIdentifier(UInt32.self): value = try decode(UInt32.self)
        case ObjectIdentifier(UInt64.self): value = try decode(UInt64.self)
        default: return nil
        }
        guard let typed = value as? T else { throw mismatch(String(describing: T.self), type) }
        return typed
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch node.value {
        case .int(let int):
            guard let exact = I(exactly: int) else { throw corrupted("number \(int) is out of range for \(I.self)") }
            return exact
        case .double(let double):
            guard double.rounded() == double else { throw mismatch("a whole number", type, found: "\(double)") }
            guard let exact = I(exactly: double) else {
                throw corrupted("number \(double) is out of range for \(I.self)")
            }
            return exact
        default:
            throw mismatch("a whole number", type)
        }
    }

    private func mismatch(_ expected: String, _ type: Any.Type, found: String? = nil) -> DecodingError {
        let found = found ?? node.foundDescription
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    private func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}
