import Foundation
import Livery
import LiveryServer
import LiveryTUF
import LiveryTesting
import Testing

/// `livery serve --signing`: the spec set as a TUF repository whose metadata verifies under the
/// signing folder's root, whose targets are the bytes `/v1/spec/{etag}` serves, and whose
/// versions never go back, a restart included.
@Suite(.timeLimit(.minutes(1))) struct SignedDeliveryTests {
    private struct Walk {
        var timestamp: Int
        var timestampExpires: Date
        var snapshot: SnapshotMetadata
        var targets: SignedMetadata<TargetsMetadata>
    }

    /// `GET /v1/tuf/status`'s body, as Livery Studio reads it.
    private struct Status: Decodable {
        struct Role: Decodable {
            var keyids: [String]
            var threshold: Int
            var version: Int?
            var expires: Date?
            var online: Bool
            var renews: Date?
        }
        var roles: [String: Role]
    }

    /// Walks the repository at `base` (`/v1`, or an environment's `/v1/environments/{env}`) as
    /// a TUF client does: timestamp, snapshot, targets, each verified.
    private func walk(_ server: TestDaemon, root: RootMetadata, base: String = "/v1") async throws -> Walk {
        let timestamp = try SignedMetadata<TimestampMetadata>(
            bytes: try await server.http.get("\(base)/tuf/metadata/timestamp.json").body)
        try timestamp.verify(by: root)
        let named = try #require(timestamp.signed.snapshot)
        let snapshotReply = try await server.http.get("\(base)/tuf/metadata/\(named.version).snapshot.json")
        #expect(snapshotReply.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(MetaFile(version: named.version, bytes: snapshotReply.body) == named)
        let snapshot = try SignedMetadata<SnapshotMetadata>(bytes: snapshotReply.body)
        try snapshot.verify(by: root)
        let version = try #require(snapshot.signed.meta["targets.json"]?.version)
        let targets = try SignedMetadata<TargetsMetadata>(
            bytes: try await server.http.get("\(base)/tuf/metadata/\(version).targets.json").body)
        try targets.verify(by: root)
        return Walk(
            timestamp: timestamp.signed.version, timestampExpires: timestamp.signed.expires, snapshot: snapshot.signed,
            targets: targets)
    }

    /// The signing state at `base`, checked to be a 200 no cache keeps.
    private func status(_ server: TestDaemon, base: String = "/v1") async throws -> Status {
        let reply = try await server.http.get("\(base)/tuf/status")
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.header("Cache-Control") == "no-store")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Status.self, from: Data(reply.body))
    }

    /// Waits until the targets at `base` name the current bundle there, and returns the walk.
    private func signedCurrent(_ server: TestDaemon, root: RootMetadata, base: String = "/v1") async throws -> Walk {
        var walk: Walk?
        let signed = try await TestDaemon.eventually {
            let etag = try await server.http.get("\(base)/spec").header("ETag")
            guard try await server.http.get("\(base)/tuf/metadata/timestamp.json").status == 200 else { return false }
            walk = try await self.walk(server, root: root, base: base)
            return walk?.targets.signed.targets["bundle.json"]?.custom == .object(["etag": .string(etag ?? "")])
        }
        #expect(signed)
        return try #require(walk)
    }

    @Test func targetsAreTheServedBytesAndVersionsNeverGoBackAcrossARestart() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-signing")
        let folder = try SigningFolder.create(at: scratch.url.appending(path: "signing"), now: Date())
        let root = try folder.latestRoot().signed
        let signing = try DaemonSigning(folder: folder)
        let configure: (inout DaemonConfiguration) -> Void = {
            $0.signing = signing
            $0.stateDirectory = scratch.url.appending(path: "state")
        }
        let specs = try TemporarySpecFolder(prefix: "livery-signing-specs")
        try TestDaemon.writeExample(to: specs)

        let before = try await TestDaemon.with(folder: specs, configure: configure) { server in
            let first = try await signedCurrent(server, root: root)
            let bundle = try await server.http.get("/v1/spec")
            let etag = try #require(bundle.header("ETag")).trimmingCharacters(in: ["\""])
            for (name, route) in [("bundle.json", "spec"), ("livery.css", "css")] {
                let target = try #require(first.targets.signed.targets[name])
                let served = try await server.http.get("/v1/\(route)/\(etag)").body
                #expect(target.matches(served), "\(name)")
                let fetched = try await server.http.get("/v1/tuf/targets/\(try #require(target.sha256)).\(name)")
                #expect(fetched.body == served)
                #expect(fetched.header("Cache-Control") == "public, max-age=31536000, immutable")
            }
            #expect(try await server.http.get("/v1/tuf/metadata/timestamp.json").header("Cache-Control") == "no-cache")

            let pushed = try await server.http.put(
                "/v1/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF0000\"\n")
            #expect(pushed.status == 200)
            let second = try await signedCurrent(server, root: root)
            #expect(second.targets.signed.version == first.targets.signed.version + 1)
            #expect(second.timestamp == first.timestamp + 1)
            return second
        }

        try await TestDaemon.with(folder: specs, configure: configure) { server in
            let restarted = try await signedCurrent(server, root: root)
            #expect(
                restarted.targets.signed.version == before.targets.signed.version, "the same bundle is not signed again"
            )
            #expect(restarted.timestamp == before.timestamp)
            let repushed = try await server.http.put(
                "/v1/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#00FF00\"\n")
            #expect(repushed.status == 200, "\(repushed.text)")
            let next = try await signedCurrent(server, root: root)
            #expect(next.targets.signed.version == before.targets.signed.version + 1)
        }
    }

    @Test func theStatusNamesEachRolesKeysAndTheVersionsAndExpiriesServed() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-signing")
        let folder = try SigningFolder.create(at: scratch.url.appending(path: "signing"), now: Date())
        let root = try folder.latestRoot().signed
        let signing = try DaemonSigning(folder: folder, timestampLifetime: 7_200)
        try await TestDaemon.with(configure: { $0.signing = signing }) { server in
            let first = try await signedCurrent(server, root: root)
            let before = try await status(server)
            #expect(Set(before.roles.keys) == Set(root.roles.keys))
            for (name, keys) in root.roles {
                #expect(before.roles[name]?.keyids == keys.keyids, "\(name)")
                #expect(before.roles[name]?.threshold == keys.threshold, "\(name)")
            }
            let rootRole = try #require(before.roles["root"])
            #expect(rootRole.version == root.version && rootRole.expires == root.expires)
            #expect(!rootRole.online && rootRole.renews == nil, "the root key is never the daemon's")

            let served: [String: (version: Int, expires: Date, lifetime: TimeInterval)] = [
                "targets": (first.targets.signed.version, first.targets.signed.expires, signing.roles.targetsLifetime),
                "snapshot": (first.snapshot.version, first.snapshot.expires, signing.roles.targetsLifetime),
                "timestamp": (first.timestamp, first.timestampExpires, 7_200),
            ]
            for (name, metadata) in served {
                let role = try #require(before.roles[name])
                #expect(role.version == metadata.version, "\(name)")
                #expect(role.expires == metadata.expires, "\(name)")
                #expect(role.online, "\(name)")
                #expect(role.renews == metadata.expires.addingTimeInterval(-metadata.lifetime / 2), "\(name)")
            }

            _ = try await server.http.put("/v1/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF0000\"\n")
            let second = try await signedCurrent(server, root: root)
            let after = try await status(server)
            #expect(after.roles["targets"]?.version == second.targets.signed.version)
            #expect(after.roles["snapshot"]?.version == second.snapshot.version)
            #expect(after.roles["timestamp"]?.version == second.timestamp)
            for name in ["targets", "snapshot", "timestamp"] {
                #expect(after.roles[name]?.version == (before.roles[name]?.version ?? 0) + 1, "\(name)")
            }
            #expect(after.roles["root"]?.version == root.version)
        }
    }

    @Test func eachEnvironmentIsARepositoryOfItsOwn() async throws {
        let environments = try EnvironmentFolderTests.root()
        let scratch = try TemporarySpecFolder(prefix: "livery-signing")
        let folder = try SigningFolder.create(at: scratch.url.appending(path: "signing"), now: Date())
        let root = try folder.latestRoot().signed
        let signing = try DaemonSigning(folder: folder)
        try await EnvironmentFolderTests.withEnvironments(
            environments,
            configure: {
                $0.signing = signing
                $0.stateDirectory = scratch.url.appending(path: "state")
            }
        ) { server in
            let staging = try await signedCurrent(server, root: root, base: "/v1/environments/staging")
            let production = try await signedCurrent(server, root: root, base: "/v1/environments/production")
            let stagingBundle = try #require(staging.targets.signed.targets["bundle.json"]?.sha256)
            #expect(stagingBundle != production.targets.signed.targets["bundle.json"]?.sha256)
            let elsewhere = try await server.http.get(
                "/v1/environments/production/tuf/targets/\(stagingBundle).bundle.json")
            #expect(elsewhere.status == 404, "production serves no target of staging's")

            _ = try await server.http.put(
                "/v1/environments/staging/specs/palette.yaml", "variables:\n  colors:\n    accent: \"#FF375F\"\n")
            let pushed = try await signedCurrent(server, root: root, base: "/v1/environments/staging")
            #expect(pushed.targets.signed.version == staging.targets.signed.version + 1)
            let untouched = try await walk(server, root: root, base: "/v1/environments/production")
            #expect(untouched.timestamp == production.timestamp, "staging's push signs nothing of production's")
            #expect(untouched.targets.signed == production.targets.signed)
            let stagingStatus = try await status(server, base: "/v1/environments/staging")
            #expect(stagingStatus.roles["targets"]?.version == pushed.targets.signed.version)
            let productionStatus = try await status(server, base: "/v1/environments/production")
            #expect(productionStatus.roles["targets"]?.version == production.targets.signed.version)
            #expect(productionStatus.roles["root"]?.keyids == stagingStatus.roles["root"]?.keyids, "the daemon's keys")
        }
    }

    @Test func withoutSigningTheRoutesAnswer404() async throws {
        try await TestDaemon.with { server in
            for path in ["/v1/tuf/metadata/timestamp.json", "/v1/tuf/targets/0.bundle.json", "/v1/tuf/status"] {
                let reply = try await server.http.get(path)
                #expect(reply.status == 404, "\(path)")
            }
        }
    }
}
