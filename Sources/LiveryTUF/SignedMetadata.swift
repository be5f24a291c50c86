/// A role's metadata as a TUF file holds it, `{"signed": …, "signatures": [{"keyid", "sig"}]}`:
/// the signatures cover the canonical JSON of `signed`.
package struct SignedMetadata<Role: RoleMetadata>: Sendable {
    /// The metadata, as read back from ``signedBytes`` (so an expiry is in whole seconds).
    package let signed: Role
    /// The canonical JSON of `signed`, every member read kept: the bytes the signatures cover.
    package let signedBytes: [UInt8]
    package private(set) var signatures: [Signature]
    private let signedJSON: CanonicalJSON

    /// `role`'s metadata, not signed yet.
    package init(_ role: Role) throws {
        signedJSON = try MetadataCoding.canonicalJSON(of: role)
        signedBytes = signedJSON.bytes
        signed = try MetadataCoding.decode(Role.self, from: signedBytes)
        signatures = []
    }

    /// The metadata a file holds, its signatures not checked yet (``verify(by:)``).
    ///
    /// - Throws: ``TUFError/malformed(role:detail:)`` when the bytes are not that role's metadata.
    package init(bytes: some Collection<UInt8>) throws(TUFError) {
        do {
            let envelope = try MetadataCoding.decode(Envelope.self, from: bytes)
            signedJSON = envelope.signed
            signedBytes = signedJSON.bytes
            signatures = envelope.signatures
            signed = try MetadataCoding.decode(Role.self, from: signedBytes)
        } catch {
            throw .malformed(role: Role.roleName, detail: "\(error)")
        }
        guard signed.type == Role.roleName else {
            throw .malformed(role: Role.roleName, detail: "_type is \"\(signed.type)\"")
        }
    }

    /// Adds `key`'s signature (replacing one by the same key).
    package mutating func sign(with key: SigningKey) throws {
        let signature = try key.sign(signedBytes)
        signatures.removeAll { $0.keyid == signature.keyid }
        signatures.append(signature)
    }

    /// The file's bytes: the envelope in canonical JSON, so that the same metadata and
    /// signatures are always the same bytes (Ed25519 signatures are deterministic).
    package var bytes: [UInt8] {
        let signatures = signatures.map { CanonicalJSON.object(["keyid": .string($0.keyid), "sig": .string($0.sig)]) }
        return CanonicalJSON.object(["signatures": .array(signatures), "signed": signedJSON]).bytes
    }

    /// Checks that `root` gives this role keys of which at least its threshold signed.
    package func verify(by root: RootMetadata) throws(TUFError) {
        try verify(role: root.keys(of: Role.roleName), keys: root.keys)
    }

    /// Checks that at least `role.threshold` distinct keys of `role` signed ``signedBytes``.
    /// A signature by a key that is not the role's, malformed, or of a kind other than Ed25519
    /// counts for nothing, as the specification says of keys a client does not know.
    package func verify(role: RoleKeys, keys: [String: PublicKey]) throws(TUFError) {
        guard role.threshold >= 1 else {
            throw .malformed(
                role: Role.roleName, detail: "the role's threshold is \(role.threshold), at least 1 required")
        }
        var valid: Set<String> = []
        var refused: [String] = []
        for signature in signatures where role.keyids.contains(signature.keyid) && !valid.contains(signature.keyid) {
            guard let key = keys[signature.keyid], let bytes = Hex.decode(signature.sig) else { continue }
            do {
                if try key.isValid(signature: bytes, of: signedBytes) { valid.insert(signature.keyid) }
            } catch {
                refused.append("\(signature.keyid): \(error)")
            }
        }
        guard valid.count >= role.threshold else {
            throw .belowThreshold(role: Role.roleName, valid: valid.count, threshold: role.threshold, unusable: refused)
        }
    }

    private struct Envelope: Decodable {
        var signed: CanonicalJSON
        var signatures: [Signature]
    }
}
