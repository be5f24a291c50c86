import Crypto

/// An Ed25519 private key and the TUF public key that verifies what it signs.
package struct SigningKey: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    /// A new random key.
    package init() {
        key = Curve25519.Signing.PrivateKey()
    }

    /// The key whose 32-byte seed (RFC 8032's "secret key") is `seed`.
    package init(seed: [UInt8]) throws(TUFError) {
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        } catch {
            throw .badKey("a private key of \(seed.count) bytes, expected an Ed25519 seed of 32: \(error)")
        }
    }

    /// The 32-byte seed, what a key file keeps.
    package var seed: [UInt8] { Array(key.rawRepresentation) }

    package var publicKey: PublicKey { PublicKey(ed25519: key.publicKey.rawRepresentation) }

    /// The TUF signature of `message` by this key.
    package func sign(_ message: [UInt8]) throws -> Signature {
        Signature(keyid: publicKey.id, sig: Hex.encode(try key.signature(for: message)))
    }
}
