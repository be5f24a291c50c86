#if canImport(Glibc)
import Glibc
#endif

/// Byte comparisons for the raw request path: `memcmp`, where the generic `elementsEqual` over
/// a buffer and an array walks element by element at some 20 instructions a byte.
package enum RawBytes {
    /// Whether `bytes` are exactly `expected`.
    package static func equal(_ bytes: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        guard bytes.count == expected.count else { return false }
        return expected.withUnsafeBytes { other in
            // Equal counts: a missing base address means both are empty.
            guard let lhs = bytes.baseAddress, let rhs = other.baseAddress else { return true }
            return memcmp(lhs, rhs, bytes.count) == 0
        }
    }
}
