import Foundation
import LiveryTUF
import Testing

/// The repository's online roles, driven by the times the tests give them (no clock is read).
@Suite struct OnlineRolesTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let timestampKey = SigningKey()
    private let snapshotKey = SigningKey()
    private let targetsKey = SigningKey()

    private var roles: OnlineRoles {
        OnlineRoles(
            timestampKey: timestampKey, snapshotKey: snapshotKey, targetsKey: targetsKey, timestampLifetime: 3_600)
    }

    private var root: RootMetadata {
        let keys = [timestampKey, snapshotKey, targetsKey].map(\.publicKey)
        return RootMetadata(
            version: 1, expires: start.addingTimeInterval(86_400 * 400),
            keys: Dictionary(uniqueKeysWithValues: keys.map { ($0.id, $0) }),
            roles: [
                "timestamp": RoleKeys(keyids: [timestampKey.publicKey.id]),
                "snapshot": RoleKeys(keyids: [snapshotKey.publicKey.id]),
                "targets": RoleKeys(keyids: [targetsKey.publicKey.id]),
            ])
    }

    private func files(_ text: String) -> [String: TargetFile] {
        ["bundle.json": TargetFile(bytes: Array(text.utf8), custom: .object(["etag": .string(text)]))]
    }

    /// Checks that the repository's timestamp, snapshot and targets chain as a client walks them.
    private func verifyChain(_ metadata: RepositoryMetadata) throws -> (timestamp: Int, snapshot: Int, targets: Int) {
        let timestamp = try metadata.currentTimestamp()
        try timestamp.verify(by: root)
        let named = try #require(timestamp.signed.snapshot)
        let snapshotText = try #require(metadata.snapshots[String(named.version)])
        #expect(MetaFile(version: named.version, bytes: Array(snapshotText.utf8)) == named)
        let snapshot = try SignedMetadata<SnapshotMetadata>(bytes: Array(snapshotText.utf8))
        try snapshot.verify(by: root)
        let targetsVersion = try #require(snapshot.signed.meta["targets.json"]?.version)
        let targets = try SignedMetadata<TargetsMetadata>(
            bytes: Array(try #require(metadata.targets[String(targetsVersion)]).utf8))
        try targets.verify(by: root)
        return (timestamp.signed.version, snapshot.signed.version, targets.signed.version)
    }

    @Test func eachPublishIsOneVersionPastTheLastAndOnlyTheLastFewAreKept() throws {
        var metadata = try roles.publishing(files("a"), after: nil, now: start)
        #expect(try verifyChain(metadata) == (1, 1, 1))
        for index in 2...10 {
            metadata = try roles.publishing(files("v\(index)"), after: metadata, now: start)
            #expect(try verifyChain(metadata) == (index, index, index))
        }
        #expect(metadata.targets.count == RepositoryMetadata.keptVersions)
        #expect(Set(metadata.snapshots.keys) == Set((3...10).map(String.init)))
        #expect(try metadata.currentTargets().signed.targets == files("v10"))
    }

    /// The timestamp is re-signed at half its life, not before; targets and snapshot at half of
    /// theirs, with the same targets.
    @Test func reSignsTheTimestampAtHalfItsLife() throws {
        let published = try roles.publishing(files("a"), after: nil, now: start)
        #expect(try roles.refreshed(published, now: start.addingTimeInterval(1_799)) == nil)
        let refreshed = try #require(try roles.refreshed(published, now: start.addingTimeInterval(1_800)))
        #expect(try verifyChain(refreshed) == (2, 1, 1))
        #expect(try refreshed.currentTimestamp().signed.expires == start.addingTimeInterval(1_800 + 3_600))
        #expect(try roles.refreshed(refreshed, now: start.addingTimeInterval(3_599)) == nil)

        let late = start.addingTimeInterval(roles.targetsLifetime / 2)
        let renewed = try #require(try roles.refreshed(refreshed, now: late))
        #expect(try verifyChain(renewed) == (3, 2, 2))
        #expect(try renewed.currentTargets().signed.targets == files("a"))
    }

    /// Without the targets key, targets signed elsewhere are published as they are, and only
    /// the snapshot over them is re-signed when due: their expiry is their signer's.
    @Test func offlineTargetsArePublishedAsSignedAndOnlyTheSnapshotIsReSigned() throws {
        var offline = roles
        offline.targetsKey = nil
        #expect(throws: TUFError.self, "nothing to sign targets with") {
            try offline.publishing(files("a"), after: nil, now: start)
        }
        var targets = try SignedMetadata(
            TargetsMetadata(version: 1, expires: start.addingTimeInterval(86_400 * 30), targets: files("a")))
        try targets.sign(with: targetsKey)
        let published = try offline.publishing(targets: targets, after: nil, now: start)
        #expect(try verifyChain(published) == (1, 1, 1))
        #expect(published.targets["1"] == String(decoding: targets.bytes, as: UTF8.self))

        let late = start.addingTimeInterval(offline.targetsLifetime / 2)
        #expect(
            try offline.refreshed(published, now: late.addingTimeInterval(-1))?.snapshotVersion == 1,
            "the timestamp only")
        let renewed = try #require(try offline.refreshed(published, now: late))
        #expect(try verifyChain(renewed) == (2, 2, 1))
        #expect(renewed.targets["1"] == published.targets["1"], "the same signed targets")
    }

    /// ``OnlineRoles/renewal(of:expiring:)``, what `GET /v1/tuf/status` shows, is when
    /// ``OnlineRoles/refreshed(_:now:)`` signs each role anew; a key not held here has none.
    @Test func theRenewalIsWhenEachRoleIsSignedAnew() throws {
        let published = try roles.publishing(files("a"), after: nil, now: start)
        let timestamp = try published.currentTimestamp().signed
        let due = try #require(roles.renewal(of: TimestampMetadata.roleName, expiring: timestamp.expires))
        #expect(due == timestamp.expires.addingTimeInterval(-1_800), "at half of the timestamp's hour")
        #expect(try roles.refreshed(published, now: due.addingTimeInterval(-1)) == nil)
        #expect(try verifyChain(try #require(try roles.refreshed(published, now: due))) == (2, 1, 1))
        let targets = try published.currentTargets().signed
        let targetsDue = try #require(roles.renewal(of: TargetsMetadata.roleName, expiring: targets.expires))
        let early = try #require(try roles.refreshed(published, now: targetsDue.addingTimeInterval(-1)))
        #expect(try verifyChain(early) == (2, 1, 1), "the timestamp only")
        #expect(try verifyChain(try #require(try roles.refreshed(published, now: targetsDue))) == (2, 2, 2))
        #expect(roles.renewal(of: RootMetadata.roleName, expiring: start) == nil, "the root key is never here")

        var offline = roles
        offline.targetsKey = nil
        #expect(offline.renewal(of: TargetsMetadata.roleName, expiring: targets.expires) == nil)
        #expect(offline.holdsKey(of: SnapshotMetadata.roleName) && offline.holdsKey(of: TimestampMetadata.roleName))
        #expect(!offline.holdsKey(of: TargetsMetadata.roleName) && roles.holdsKey(of: TargetsMetadata.roleName))
    }
}
