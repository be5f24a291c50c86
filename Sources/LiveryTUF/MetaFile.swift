import Crypto

/// What snapshot says of a targets file, and timestamp of the snapshot: its version, and
/// optionally its length and hashes.
package struct MetaFile: Codable, Hashable, Sendable {
    package var version: Int
    package var length: Int?
    package var hashes: [String: String]?

    package init(version: Int) {
        self.version = version
    }

    /// The description of the metadata file `bytes` of `version`, with length and SHA-256.
    package init(version: Int, bytes: some Collection<UInt8>) {
        self.version = version
        length = bytes.count
        hashes = ["sha256": Hex.encode(SHA256.hash(data: Array(bytes)))]
    }
}
