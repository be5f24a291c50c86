import Livery

/// A fingerprint of a folder's content: the relative paths and bytes of its content files.
///
/// It is FNV-1a (64 bit, Livery's `FNV1a64`): fast, deterministic across processes and releases
/// (unlike `Hasher`, which is seeded per process), and good enough to tell "the same bytes again"
/// from a change. It is not a cryptographic hash; never use it to authenticate content.
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

extension FNV1a64 {
    /// The hash of everything combined so far, as a folder's content hash.
    var hash: ContentHash { ContentHash(value: value) }
}
