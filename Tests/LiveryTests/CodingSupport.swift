import Foundation
import Testing

/// A value under the key `value`, so every decode has a non-empty coding path and no test relies
/// on top-level JSON fragments.
struct Box<Value: Codable>: Codable {
    var value: Value
}

/// The value that `json` (the JSON text of the value alone) decodes to.
func decode<Value: Codable>(_ type: Value.Type, from json: String) throws -> Value {
    try JSONDecoder().decode(Box<Value>.self, from: Data(#"{"value": \#(json)}"#.utf8)).value
}

/// `value` encoded as JSON with sorted keys, without the box.
func encode<Value: Codable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let boxed = String(decoding: try encoder.encode(Box(value: value)), as: UTF8.self)
    return String(boxed.dropFirst(#"{"value":"#.count).dropLast())
}

/// What a decoding failure says, flattened so tests can compare it exactly.
struct DecodingFailure: Equatable, CustomStringConvertible {
    /// `typeMismatch`, `valueNotFound`, `keyNotFound` or `dataCorrupted`.
    var kind: String
    /// The coding path, keys and indices joined with dots: `value.size`.
    var path: String
    /// The debug description.
    var message: String

    var description: String { "\(kind) at \(path): \(message)" }
}

/// The failure decoding `json` as `type` throws; records an issue if it decodes.
func decodingFailure<Value: Codable>(
    _ type: Value.Type,
    from json: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> DecodingFailure? {
    do {
        let value = try decode(type, from: json)
        Issue.record("\(json) decoded as \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as DecodingError {
        let render = { (kind: String, context: DecodingError.Context) in
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return DecodingFailure(kind: kind, path: path.joined(separator: "."), message: context.debugDescription)
        }
        switch error {
        case .typeMismatch(_, let context): return render("typeMismatch", context)
        case .valueNotFound(_, let context): return render("valueNotFound", context)
        case .keyNotFound(let key, let context): return render("keyNotFound(\(key.stringValue))", context)
        case .dataCorrupted(let context): return render("dataCorrupted", context)
        @unknown default: return render("unknown", DecodingError.Context(codingPath: [], debugDescription: "\(error)"))
        }
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
