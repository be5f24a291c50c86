import Crypto

/// A TUF public key, `{"keytype": "ed25519", "scheme": "ed25519", "keyval": {"public": hex}}`:
/// the only kind Livery signs with and the one every TUF client verifies.
package struct PublicKey: Codable, Hashable, Sendable {
    package struct Value: Codable, Hashable, Sendable {
        package var `public`: String
    }

    package var keytype: String
    package var scheme: String
    package var keyval: Value

    package init(ed25519 rawRepresentation: some Sequence<UInt8>) {
        keytype = "ed25519"
        scheme = "ed25519"
        keyval = Value(public: Hex.encode(rawRepresentation))
    }

    /// The key id: the SHA-256 of the key's canonical JSON, in hexadecimal.
    package var id: String {
        let object: CanonicalJSON = .object([
            "keytype": .string(keytype), "scheme": .string(scheme),
            "keyval": .object(["public": .string(keyval.public)]),
        ])
        return Hex.encode(SHA256.hash(data: object.bytes))
    }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    ///
    /// - Throws: ``TUFError/badKey(_:)`` when this is not an Ed25519 key of 32 bytes.
    package func isValid(signature: [UInt8], of message: [UInt8]) throws(TUFError) -> Bool {
        guard keytype == "ed25519", scheme == "ed25519" else {
            throw .badKey("keytype \"\(keytype)\" and scheme \"\(scheme)\", expected ed25519 and ed25519")
        }
        guard let raw = Hex.decode(keyval.public) else {
            throw .badKey("keyval.public is not hexadecimal: \"\(keyval.public)\"")
        }
        let key: Curve25519.Signing.PublicKey
        do {
            key = try Curve25519.Signing.PublicKey(rawRepresentation: raw)
        } catch {
            throw .badKey("keyval.public is \(raw.count) bytes, expected an Ed25519 key of 32: \(error)")
        }
        return key.isValidSignature(signature, for: message)
    }
}
