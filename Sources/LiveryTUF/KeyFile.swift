package import Foundation

/// A private key on disk: `{"keytype": "ed25519", "scheme": "ed25519", "keyval": {"public": hex,
/// "private": hex}}` (securesystemslib's form, the private part the 32-byte seed), readable by
/// its owner only.
package enum KeyFile {
    private struct Contents: Codable {
        struct Value: Codable {
            var `public`: String
            var `private`: String
        }
        var keytype: String
        var scheme: String
        var keyval: Value
    }

    package static func read(_ url: URL) throws -> SigningKey {
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: try Data(contentsOf: url))
        } catch {
            throw TUFError.badKey("\(url.path): expected a key file as `livery signing init` writes it: \(error)")
        }
        guard contents.keytype == "ed25519", contents.scheme == "ed25519",
            let seed = Hex.decode(contents.keyval.private)
        else {
            throw TUFError.badKey("\(url.path): expected an ed25519 key with its private part in hexadecimal")
        }
        let key = try SigningKey(seed: seed)
        guard key.publicKey.keyval.public == contents.keyval.public else {
            throw TUFError.badKey("\(url.path): the public part is not the private part's key")
        }
        return key
    }

    /// Writes `key` to `url` with mode 0600, replacing the file there in one rename.
    package static func write(_ key: SigningKey, to url: URL) throws {
        let contents = Contents(
            keytype: "ed25519", scheme: "ed25519",
            keyval: .init(public: key.publicKey.keyval.public, private: Hex.encode(key.seed)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).new")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: try encoder.encode(contents), attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
