package import Foundation

/// What the `signed` part of every TUF role's metadata has: its type, version and expiry.
package protocol RoleMetadata: Codable, Sendable {
    /// The role's name and `_type`: `root`, `targets`, `snapshot` or `timestamp`.
    static var roleName: String { get }
    /// The `_type` read, which must be ``roleName``.
    var type: String { get }
    var version: Int { get }
    var expires: Date { get }
}

/// The specification version Livery writes (python-tuf 7 writes the same).
package let tufSpecificationVersion = "1.0.31"

/// The one JSON coding of metadata: expiry times as `2030-01-01T00:00:00Z`, which the
/// specification requires (whole seconds, UTC), and a canonical encoding of what is signed.
package enum MetadataCoding {
    package static func canonicalJSON(of value: some Encodable) throws -> CanonicalJSON {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(
                Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601))
        }
        return try JSONDecoder().decode(CanonicalJSON.self, from: try encoder.encode(value))
    }

    package static func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Sequence<UInt8>) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard text.count == 20, text.hasSuffix("Z") else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not YYYY-MM-DDTHH:MM:SSZ"))
            }
            return try Date(text, strategy: .iso8601)
        }
        return try decoder.decode(type, from: Data(bytes))
    }
}
