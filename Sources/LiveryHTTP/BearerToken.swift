import Foundation

/// The secret that authorises pushes (`Authorization: Bearer <token>`).
///
/// Its description is redacted, so a token never ends up in a log or a terminal by accident;
/// ``text`` is there for the one place that must write it, the token file.
public struct BearerToken: Sendable, CustomStringConvertible {
    /// The token's characters.
    public let text: String
    /// ``text`` as bytes, kept for the comparisons.
    private let utf8: [UInt8]

    /// Wraps a token; surrounding whitespace (a file's trailing newline) is removed.
    ///
    /// - Throws: ``TokenError`` if nothing is left.
    public init(_ text: String) throws(TokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw TokenError("the token is empty") }
        self.text = trimmed
        self.utf8 = Array(trimmed.utf8)
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

    private init(checked text: String) {
        self.text = text
        self.utf8 = Array(text.utf8)
    }

    /// The value of an `Authorization` header carrying this token.
    public var authorizationHeader: String { "Bearer \(text)" }

    /// Whether an `Authorization` header carries this token.
    ///
    /// The comparison takes the same time wherever the first differing byte is, so response
    /// times do not reveal how much of a guess was right.
    public func authorizes(_ header: String?) -> Bool {
        guard var header else { return false }
        return header.withUTF8 { authorizes(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the bytes of an `Authorization` value carry this token: the raw request path
    /// compares them where they arrived, and the parsed one calls this too.
    public func authorizes(_ header: UnsafeRawBufferPointer) -> Bool {
        // Bytes, not Characters: a token starting with a combining mark would otherwise merge
        // with the space after `Bearer` into one Character and never match.
        let scheme = Self.scheme
        guard header.count > scheme.count else { return false }
        for index in scheme.indices {
            let byte = header[index]
            guard ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == scheme[index] else { return false }
        }
        let offered = header.count - scheme.count
        var difference = UInt8(offered == utf8.count ? 0 : 1)
        for index in utf8.indices {
            difference |= utf8[index] ^ (index < offered ? header[scheme.count + index] : 0)
        }
        return difference == 0
    }

    private static let scheme = Array("bearer ".utf8)

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
