/// One signature of a metadata envelope: the signing key's id and the signature in hexadecimal.
package struct Signature: Codable, Hashable, Sendable {
    package var keyid: String
    package var sig: String

    package init(keyid: String, sig: String) {
        self.keyid = keyid
        self.sig = sig
    }
}
