/// A fingerprint of a folder's content: the relative paths and bytes of its content files.
///
/// It is FNV-1a (64 bit): fast, deterministic across processes and releases (unlike `Hasher`,
/// which is seeded per process), and good enough to tell "the same bytes again" from a change.
/// It is not a cryptographic hash; never use it to authenticate content.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit hash value.
    public var value: UInt64

    /// Wraps a hash value.
    public init(value: UInt64) { self.value = value }

    /// The value as 16 lowercase hexadecimal digits.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The FNV-1a 64-bit hash, fed incrementally.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in `bytes`.
    mutating func combine<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }

    /// Mixes in `number` as 8 little-endian bytes, so hashes do not depend on the machine.
    mutating func combine(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { combine($0) }
    }

    /// The hash of everything combined so far.
    var hash: ContentHash { ContentHash(value: value) }
}
