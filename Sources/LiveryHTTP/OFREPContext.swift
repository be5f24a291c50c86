public import Foundation

/// The evaluation context of an OFREP request, `{"context": {…}}`: the attributes Livery reads
/// from it. Every other attribute is ignored, as the protocol allows; a request without a
/// context (the Python provider sends `{}` when the caller gives none) has an empty one.
@_spi(LiveryInternal) public struct OFREPContext: Sendable, Equatable {
    /// The theme whose values the caller wants (`nil`: the values with no theme).
    public var theme: String?
    /// The caller's instance, which decides whether it is in a staged rollout's cohort.
    public var targetingKey: String?

    public init(theme: String? = nil, targetingKey: String? = nil) {
        self.theme = theme
        self.targetingKey = targetingKey
    }

    /// Reads a request's body.
    ///
    /// - Throws: ``OFREPFailure`` `PARSE_ERROR` for a body that is not a JSON object,
    ///   `INVALID_CONTEXT` for a context that is not an object or a `theme` or `targetingKey`
    ///   that is not a string, `TARGETING_KEY_MISSING` for an empty `targetingKey`.
    public init(body: Data) throws(OFREPFailure) {
        // JSONDecoder checks a value's syntax only when it decodes it: `{"a": 09, "context": {}}`
        // would be read, and `{"context": 09}` judged a context of the wrong type. A body that
        // is not JSON is a parse error whatever it holds, so its grammar is checked whole first
        // (JSONSerialization reads every value; the bodies are a few hundred bytes).
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)
        } catch {
            throw OFREPFailure(
                .parseError, #"the body must be a JSON object {"context": {…}}, and is not JSON: \#(error)"#)
        }
        let request: Body
        do {
            request = try JSONDecoder().decode(Body.self, from: body)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw OFREPFailure(.invalidContext, "'\(path)' must be \(Self.expected(context.codingPath))")
        } catch {
            throw OFREPFailure(.parseError, #"the body must be a JSON object {"context": {…}}: \#(error)"#)
        }
        self.init(theme: request.context?.theme, targetingKey: request.context?.targetingKey)
        if targetingKey?.isEmpty == true {
            throw OFREPFailure(.targetingKeyMissing, "'context.targetingKey' is empty: expected the client's instance")
        }
    }

    private static func expected(_ path: [any CodingKey]) -> String {
        path.count == 1 ? "an object of attributes" : "a string"
    }

    private struct Body: Decodable {
        var context: Attributes?
    }

    private struct Attributes: Decodable {
        public var theme: String?
        public var targetingKey: String?
    }
}
