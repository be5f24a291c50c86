/// A JSON value as The Update Framework signs it: the OLPC canonical form, which
/// securesystemslib's `encode_canonical` writes and every TUF client verifies against.
///
/// Objects are written with their keys sorted by their UTF-8 bytes, with no whitespace; strings
/// escape only `\` and `"` (every other character, control characters included, is written as
/// its UTF-8 bytes); numbers are integers only. A value decoded from any JSON text keeps every
/// member, known to Livery or not, so the bytes a signature covers are the bytes another
/// implementation signed. Member names are Swift strings, so two names that are canonically
/// equivalent Unicode are one member (the names TUF defines are ASCII).
package enum CanonicalJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    /// The canonical bytes of this value.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .integer(let value): out += Array(String(value).utf8)
        case .string(let value): Self.write(string: value, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Sorted by bytes, not by Swift's String order (which compares canonically
            // equivalent Unicode as equal): securesystemslib sorts Python strings by code point,
            // and UTF-8 byte order is code point order.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(string: key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key, default: .null].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension CanonicalJSON: Codable {
    package init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if var items = try Self.unlessMismatched({ try decoder.unkeyedContainer() }) {
            var values: [CanonicalJSON] = []
            while !items.isAtEnd { values.append(try items.decode(CanonicalJSON.self)) }
            self = .array(values)
        } else if let members = try Self.unlessMismatched({ try decoder.container(keyedBy: MemberKey.self) }) {
            var values: [String: CanonicalJSON] = [:]
            for key in members.allKeys { values[key.stringValue] = try members.decode(CanonicalJSON.self, forKey: key) }
            self = .object(values)
        } else if let bool = try Self.unlessMismatched({ try value.decode(Bool.self) }) {
            self = .bool(bool)
        } else if let string = try Self.unlessMismatched({ try value.decode(String.self) }) {
            self = .string(string)
        } else {
            // The only kind left is a number: canonical JSON has integers only, so a fraction
            // fails here with the decoder's own error, naming the place. (An integral number
            // written with an exponent or `.0` reads as the integer; its canonical form is then
            // not the bytes a signer wrote, so no signature over it verifies.)
            self = .integer(try value.decode(Int64.self))
        }
    }

    /// `body`'s value, or nil when the JSON there is of another kind; any other error is thrown.
    private static func unlessMismatched<Value>(_ body: () throws -> Value) throws -> Value? {
        do { return try body() } catch DecodingError.typeMismatch { return nil }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let bool):
            var value = encoder.singleValueContainer()
            try value.encode(bool)
        case .integer(let integer):
            var value = encoder.singleValueContainer()
            try value.encode(integer)
        case .string(let string):
            var value = encoder.singleValueContainer()
            try value.encode(string)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, item) in members { try container.encode(item, forKey: MemberKey(key)) }
        }
    }

    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
