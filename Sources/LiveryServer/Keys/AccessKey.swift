import Foundation
@_spi(LiveryInternal) import LiveryHTTP

/// A key's secret: `lvr_` and 43 base64url characters, 256 random bits from the system's secure
/// generator. The fixed prefix lets secret scanners find a key pasted where it should not be.
/// The daemon keeps only its SHA-256 (``KeyRecord/sha256``).
package enum AccessKey {
    /// What every key starts with.
    package static let prefix = "lvr_"

    /// A new key.
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + text
    }

    /// The SHA-256 of `key`'s bytes, as lowercase hex: what a record keeps.
    package static func digest(of key: some Sequence<UInt8>) -> String {
        SHA256.digest(key).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
