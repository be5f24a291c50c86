/// A strong HTTP entity tag computed from content bytes: the same bytes give the same tag in
/// every process and release, so a client's cached tag stays valid across daemon restarts.
///
/// The opaque part is the 64-bit FNV-1a hash of the bytes as 16 lowercase hex digits. That is
/// a fingerprint for caching, not an integrity check: never use it to authenticate content.
public struct EntityTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag without quotes, such as `9f3c0a1b2c3d4e5f`.
    public let opaque: String

    /// Wraps an opaque tag (without quotes).
    public init(opaque: String) {
        self.opaque = opaque
    }

    /// The tag of `bytes`.
    public init(of bytes: some Sequence<UInt8>) {
        // FNV-1a written out again rather than Livery's `FNV1a64`: LiveryHTTP depends on no
        // Livery module. EntityTagTests holds it to the reference values.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        opaque = String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The header form, in double quotes: `"9f3c0a1b2c3d4e5f"`.
    public var description: String { "\"\(opaque)\"" }

    /// Whether `text` names this tag: the header form, the bare opaque part, or the weak form.
    ///
    /// `Last-Event-ID` values come back exactly as sent, but clients and proxies differ on
    /// quoting, and treating them alike only avoids a needless resend.
    public func isNamed(by text: String) -> Bool {
        Self.opaque(of: text) == opaque
    }

    /// The opaque part of a tag as a header, a URL or a client shows it: without `W/` and quotes.
    /// Read on UTF-8 bytes, not Characters: a combining mark after the quote (obs-text, which a
    /// tag may hold) joins it into one Character, which then is no quote.
    public static func opaque(of text: String) -> String {
        var bytes = Substring(text.trimmingSpaces).utf8[...]
        if bytes.starts(with: "W/".utf8) { bytes = bytes.dropFirst(2) }
        let quote = UInt8(ascii: "\"")
        if bytes.count >= 2, bytes.first == quote, bytes.last == quote { bytes = bytes.dropFirst().dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package var trimmingSpaces: String {
        let spaces: Set<Character> = [" ", "\t"]
        guard let start = firstIndex(where: { !spaces.contains($0) }),
            let end = lastIndex(where: { !spaces.contains($0) })
        else { return "" }
        return String(self[start...end])
    }
}
