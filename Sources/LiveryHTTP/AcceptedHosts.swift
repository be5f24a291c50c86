/// The names a daemon accepts in `Host`, and the test of a `Host` value against them: a `Host`
/// is read as its name up to the first `:` (after the `]` of an IPv6 address), then nothing or
/// `:` and a port of digits, and names one of them in any ASCII case (RFC 9110 §7.2, §4.2.3).
///
/// The raw path tests every request it answers, so the test costs a few dozen instructions:
/// each name is kept with its length and its first and last eight bytes as words, compared with
/// two loads each (then lowercased eight bytes at a time, for a name in another case), with no
/// reference counted along the way.
struct AcceptedHosts: Sendable {
    /// One accepted name: where it lies in ``bytes``, whether a port may follow it, and its
    /// first and last `min(count, 8)` bytes as words (4 bytes each for a name of 4 to 7).
    private struct Name: Sendable {
        let start: Int
        let count: Int
        let takesPort: Bool
        /// The byte a `Host` naming it starts with, lowercased: its first, or the `:` of the
        /// port for the empty name. Tried before the words, since most names tried are not it.
        let first: UInt8
        let head: UInt64
        let tail: UInt64
    }

    private let names: [Name]
    /// Every name, lowercased, one after another.
    private let bytes: [UInt8]

    /// The names, in any case. A name with a `:` of its own (outside an IPv6 address's
    /// brackets) is never matched, so it is dropped; one that opens a `[` it never closes is
    /// matched only without a port.
    init(_ names: [String]) {
        var kept: [Name] = []
        var bytes: [UInt8] = []
        for name in names {
            let name = Array(name.lowercased().utf8)
            let closes = name.firstIndex(of: UInt8(ascii: "]"))
            let searchFrom = name.first == UInt8(ascii: "[") ? (closes ?? name.count) : 0
            guard !name[searchFrom...].contains(UInt8(ascii: ":")) else { continue }
            let (head, tail) = name.withUnsafeBytes { Self.words(of: $0, count: name.count) }
            kept.append(
                Name(
                    start: bytes.count, count: name.count, takesPort: name.first != UInt8(ascii: "[") || closes != nil,
                    first: name.first ?? UInt8(ascii: ":"), head: head, tail: tail))
            bytes += name
        }
        self.names = kept
        self.bytes = bytes
    }

    /// Whether `host` (not empty) names one of the names: the first name it starts with
    /// decides (no two names can both be followed by the `:` of a port). Written for the common
    /// case, a name of 4 to 16 bytes in lowercase and a port of up to 8 digits: the rest is left
    /// to ``admitsSlowly(_:_:)`` and ``isPort(_:from:)``.
    @inline(__always) func admit(_ host: UnsafeRawBufferPointer) -> Bool {
        let first = host[0]
        var index = 0
        while index < names.count {
            let name = names[index]
            index += 1
            let count = name.count
            guard
                first == name.first || first | 0x20 == name.first,
                host.count == count
                    || (name.takesPort && host.count > count && host[count] == UInt8(ascii: ":"))
            else { continue }
            guard count >= 4, count <= 16, Self.words(of: host, count: count) == (name.head, name.tail) else {
                guard admitsSlowly(host, name) else { continue }
                return Self.isPort(host, from: count + 1)
            }
            let digits = host.count - count - 1
            guard digits > 0 else { return true }
            guard digits <= 8, host.count >= 8 else { return Self.isPort(host, from: count + 1) }
            // The word's last `digits` bytes are the port's: each, less `0`, is below 10 exactly
            // when adding 0x76 leaves its top bit clear (the other bytes are masked to 0 first,
            // so no carry reaches them).
            let lanes = ~UInt64(0) &<< (64 &- 8 &* digits)
            let word =
                (host.loadUnaligned(fromByteOffset: host.count - 8, as: UInt64.self) ^ 0x3030_3030_3030_3030) & lanes
            return (word &+ 0x7676_7676_7676_7676 | word) & 0x8080_8080_8080_8080 == 0
        }
        return false
    }

    /// Whether `host` starts with `name` in any ASCII case, for what ``admit(_:)`` leaves: a
    /// name under 4 bytes or over 16, or a `Host` that writes it in another case.
    @inline(never) private func admitsSlowly(_ host: UnsafeRawBufferPointer, _ name: Name) -> Bool {
        let (head, tail) = Self.words(of: host, count: name.count)
        guard (Self.lowercased(head), Self.lowercased(tail)) == (name.head, name.tail) else { return false }
        return name.count <= 16 || sameIgnoringCase(host, name)
    }

    /// The first and last `min(count, 8)` bytes of `bytes` (at least `count` long) as words:
    /// 8 bytes each from 8 on, 4 each from 4 to 7, the bytes themselves below.
    @inline(__always) private static func words(of bytes: UnsafeRawBufferPointer, count: Int) -> (UInt64, UInt64) {
        if count >= 8 {
            return (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            )
        }
        if count >= 4 {
            return (
                UInt64(bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            )
        }
        var head: UInt64 = 0
        for index in 0..<count { head |= UInt64(bytes[index]) << (8 * index) }
        return (head, 0)
    }

    /// Whether the bytes of `host` from `start` on (if any) are all digits: none is a port too.
    private static func isPort(_ host: UnsafeRawBufferPointer, from start: Int) -> Bool {
        start >= host.count || host[start...].allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// `word` with each byte that is an ASCII capital letter in lowercase: a byte's lower seven
    /// bits plus 0x3F reach its top bit from `A` on, plus 0x25 from past `Z` on (and no byte
    /// carries into the next); a byte with its own top bit set is no letter.
    private static func lowercased(_ word: UInt64) -> UInt64 {
        let low = word & 0x7F7F_7F7F_7F7F_7F7F
        let capitals = (low &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(low &+ 0x2525_2525_2525_2525) & ~word & 0x8080_8080_8080_8080
        return word | capitals &>> 2
    }

    /// Whether the first `name.count` bytes of `host` are the name's in any ASCII case: for a
    /// name longer than 16 bytes, whose middle the words leave out.
    private func sameIgnoringCase(_ host: UnsafeRawBufferPointer, _ name: Name) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<name.count {
                var byte = host[index]
                if byte &- UInt8(ascii: "A") < 26 { byte |= 0x20 }
                guard byte == bytes[name.start + index] else { return false }
            }
            return true
        }
    }
}
