/// Turns a `DecodingError` (from our containers or from a type's own `init(from:)`) into a
/// ``SpecError`` at the node its coding path leads to.
struct DecodingErrorTranslator {
    let root: SpecNode
    let owner: String

    func translate(_ error: DecodingError) -> SpecError {
        switch error {
        case .typeMismatch(_, let context):
            return SpecError(.typeMismatch, at: location(context.codingPath), message(context))
        case .valueNotFound(_, let context):
            return SpecError(.typeMismatch, at: location(context.codingPath), message(context))
        case .keyNotFound(let key, let context):
            let place = context.codingPath.isEmpty ? owner : "'\(dotted(context.codingPath))' of \(owner)"
            return SpecError(
                .missingKey, at: location(context.codingPath), "missing key '\(key.stringValue)' in \(place)")
        case .dataCorrupted(let context):
            return SpecError(.invalidValue, at: location(context.codingPath), message(context))
        @unknown default:
            return SpecError(.invalidValue, at: root.location, "\(owner): \(error)")
        }
    }

    private func message(_ context: DecodingError.Context) -> String {
        let field = context.codingPath.isEmpty ? owner : "'\(dotted(context.codingPath))' of \(owner)"
        return "\(field): \(context.debugDescription)"
    }

    private func dotted(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// The node at `path`, or the deepest one that exists (a missing key points at its mapping).
    private func location(_ path: [any CodingKey]) -> SourceLocation {
        var node = root
        for key in path {
            switch node.value {
            case .mapping(let members):
                guard let member = members.first(where: { $0.key == key.stringValue }) else { return node.location }
                node = member.value
            case .sequence(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return node.location }
                node = items[index]
            default:
                return node.location
            }
        }
        return node.location
    }
}
