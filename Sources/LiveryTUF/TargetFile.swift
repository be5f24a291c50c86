import Crypto

/// A target in targets metadata: its length, its SHA-256 and what else the repository says of it.
package struct TargetFile: Codable, Hashable, Sendable {
    package var length: Int
    package var hashes: [String: String]
    /// The repository's own fields: for Livery the version's ETag, and a candidate's rollout.
    package var custom: CanonicalJSON?

    /// The description of `bytes`.
    package init(bytes: some Collection<UInt8>, custom: CanonicalJSON? = nil) {
        length = bytes.count
        hashes = ["sha256": Hex.encode(SHA256.hash(data: Array(bytes)))]
        self.custom = custom
    }

    /// The SHA-256 in hexadecimal, which names the file under consistent snapshots.
    package var sha256: String? { hashes["sha256"] }

    /// Whether `bytes` are this target: the length and the SHA-256 both match.
    package func matches(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count == length && sha256 == Hex.encode(SHA256.hash(data: Array(bytes)))
    }
}
