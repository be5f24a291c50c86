/// The 64-bit FNV-1a hash, fed incrementally: fast, and the same in every process and release
/// (unlike `Hasher`, which is seeded per process), so a hash may be kept or sent. It is not a
/// cryptographic hash; never use it to authenticate content.
///
/// The one copy for Livery and the modules built on it (the JSON reader's duplicate keys,
/// LiveryWatch's content hash, LiveryRemote's body digest). LiveryHTTP's `EntityTag` writes
/// the loop out again because LiveryHTTP depends on no Livery module.
package struct FNV1a64: Sendable {
    /// The hash of no bytes.
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of everything combined so far.
    package private(set) var value: UInt64 = offsetBasis

    package init() {}

    /// `hash` with `byte` mixed in: the step for loops that keep the hash in a local.
    @inlinable package static func hashing(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Mixes in `bytes`.
    package mutating func combine<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        value = bytes.reduce(value, Self.hashing)
    }

    /// Mixes in `number` as 8 little-endian bytes, so hashes do not depend on the machine.
    package mutating func combine(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { combine($0) }
    }
}
