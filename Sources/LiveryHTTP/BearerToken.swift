import Foundation

/// The secret that authorises pushes (`Authorization: Bearer <token>`).
///
/// Its description is redacted, so a token never ends up in a log or a terminal by accident;
/// ``text`` is there for the one place that must write it, the token file.
public struct BearerToken: Sendable, CustomStringConvertible {
    /// The token's characters.
    public let text: String

    /// Wraps a token; surrounding whitespace (a file's trailing newline) is removed.
    ///
    /// - Throws: ``TokenError`` if nothing is left.
    public init(_ text: String) throws(TokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw TokenError("the token is empty") }
        self.text = trimmed
    }

    /// A new random token: 32 bytes (256 bits) from the system's secure generator, as 64 hex digits.
    public static func random() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        return BearerToken(checked: hex)
    }

    private init(checked text: String) { self.text = text }

    /// The value of an `Authorization` header carrying this token.
    public var authorizationHeader: String { "Bearer \(text)" }

    /// Whether an `Authorization` header carries this token.
    ///
    /// The comparison takes the same time wherever the first differing byte is, so response
    /// times do not reveal how much of a guess was right.
    public func authorizes(_ header: String?) -> Bool {
        guard let header else { return false }
        // Bytes, not Characters: a token starting with a combining mark would otherwise merge
        // with the space after `Bearer` into one Character and never match.
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        let lowercased = bytes.prefix(scheme.count).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard bytes.count > scheme.count, lowercased == scheme else { return false }
        let offered = bytes[scheme.count...].map(\.self)
        let expected = Array(text.utf8)
        var difference = UInt8(offered.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < offered.count ? offered[index] : 0)
        }
        return difference == 0
    }

    /// `BearerToken(redacted)`: the token itself is never printed.
    public var description: String { "BearerToken(redacted)" }
}

/// A token that cannot be read, written or used.
public struct TokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
