import Livery

/// A 128-bit fingerprint of a response body: two independent 64-bit hashes over its bytes.
///
/// It tells "the same bytes again" from a change when a server sends no validators (no `ETag`,
/// no `Last-Modified`). FNV-1a and a multiply–rotate hash with other constants fail on different
/// inputs, so an accidental collision of both is out of reach for edits to a spec. Neither is
/// cryptographic: never use a digest to authenticate content.
public struct BodyDigest: Hashable, Sendable, CustomStringConvertible {
    /// The FNV-1a (64-bit) hash of the bytes.
    package var fnv: UInt64
    /// The second, independent hash of the bytes and their count.
    package var mix: UInt64

    /// Hashes `bytes`.
    public init<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        var fnv = FNV1a64.offsetBasis
        var mix: UInt64 = 0x9e37_79b9_7f4a_7c15
        var count: UInt64 = 0
        for byte in bytes {
            fnv = FNV1a64.hashing(fnv, byte)
            mix = ((mix ^ UInt64(byte)) &* 0xff51_afd7_ed55_8ccd).rotatedLeft(by: 31)
            count &+= 1
        }
        // The murmur3 finaliser spreads the last bytes and the length over every bit.
        mix ^= count
        mix ^= mix >> 33
        mix &*= 0xc4ce_b9fe_1a85_ec53
        mix ^= mix >> 33
        self.fnv = fnv
        self.mix = mix
    }

    /// 32 lowercase hexadecimal digits.
    public var description: String { Self.hex(fnv) + Self.hex(mix) }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: Int) -> UInt64 {
        (self << UInt64(count)) | (self >> UInt64(64 - count))
    }
}
