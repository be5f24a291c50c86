import Foundation
import LiveryTUF
import Testing

@Suite struct SignedMetadataTests {
    private let expiry = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z

    @Test func verifiesWhatPythonTUFSigned() throws {
        let root = try SignedMetadata<RootMetadata>(bytes: Array(Fixtures.pythonTUFRoot.utf8))
        try root.verify(by: root.signed)
        #expect(root.signed.version == 1 && root.signed.expires == expiry && root.signed.consistentSnapshot)
        let targets = try SignedMetadata<TargetsMetadata>(bytes: Array(Fixtures.pythonTUFTargets.utf8))
        try targets.verify(by: root.signed)
        let bundle = try #require(targets.signed.targets["bundle.json"])
        #expect(bundle.custom == .object(["etag": .string("\"abc\"")]))
        #expect(bundle.matches(Array("{}".utf8)) && !bundle.matches(Array("[]".utf8)))
        #expect(targets.bytes == Array(Fixtures.pythonTUFTargets.utf8))
    }

    /// A byte changed in what was signed, or a member added, breaks the signature.
    @Test(arguments: [(#""version":3"#, #""version":4"#), (#""length":2"#, #""length":2,"x":1"#)])
    func refusesChangedMetadata(original: String, replacement: String) throws {
        let root = try SignedMetadata<RootMetadata>(bytes: Array(Fixtures.pythonTUFRoot.utf8))
        let changed = Fixtures.pythonTUFTargets.replacingOccurrences(of: original, with: replacement)
        #expect(changed != Fixtures.pythonTUFTargets)
        let targets = try SignedMetadata<TargetsMetadata>(bytes: Array(changed.utf8))
        #expect(throws: TUFError.belowThreshold(role: "targets", valid: 0, threshold: 1, unusable: [])) {
            try targets.verify(by: root.signed)
        }
    }

    @Test func refusesAnotherRolesMetadata() {
        #expect(throws: TUFError.self) {
            try SignedMetadata<RootMetadata>(bytes: Array(Fixtures.pythonTUFTargets.utf8))
        }
    }

    /// A threshold of two needs two distinct keys of the role: the same key twice, or a key root
    /// gives another role, counts once or not at all.
    @Test func countsDistinctKeysOfTheRoleAgainstTheThreshold() throws {
        let first = SigningKey()
        let second = SigningKey()
        let outsider = SigningKey()
        let keys = [first, second, outsider].map(\.publicKey)
        let root = RootMetadata(
            version: 1, expires: expiry, keys: Dictionary(uniqueKeysWithValues: keys.map { ($0.id, $0) }),
            roles: [
                "root": RoleKeys(keyids: [first.publicKey.id, second.publicKey.id], threshold: 2),
                "targets": RoleKeys(keyids: [outsider.publicKey.id]),
            ])
        var metadata = try SignedMetadata(root)
        try metadata.sign(with: first)
        try metadata.sign(with: first)
        try metadata.sign(with: outsider)
        #expect(metadata.signatures.count == 2)
        #expect(throws: TUFError.belowThreshold(role: "root", valid: 1, threshold: 2, unusable: [])) {
            try metadata.verify(by: root)
        }
        try metadata.sign(with: second)
        let read = try SignedMetadata<RootMetadata>(bytes: metadata.bytes)
        try read.verify(by: root)
        #expect(read.signed == root)
        #expect(read.bytes == metadata.bytes)
    }

    /// Expiry is written in whole seconds, `YYYY-MM-DDTHH:MM:SSZ`, as the specification requires.
    @Test func writesExpiryAsTheSpecificationSays() throws {
        let timestamp = TimestampMetadata(
            version: 7, expires: expiry.addingTimeInterval(0.75), snapshot: MetaFile(version: 3))
        let metadata = try SignedMetadata(timestamp)
        let text = String(decoding: metadata.signedBytes, as: UTF8.self)
        #expect(
            text
                == #"{"_type":"timestamp","expires":"2030-01-01T00:00:00Z","meta":{"snapshot.json":{"version":3}},"spec_version":"1.0.31","version":7}"#
        )
        #expect(metadata.signed.expires == expiry)
    }
}
