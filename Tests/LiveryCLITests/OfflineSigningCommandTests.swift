import Foundation
import LiveryServer
import LiveryTUF
import LiveryTestSupport
import LiveryTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--sign-with KEY` on `livery push --rollout`, `livery rollout set|abort|complete` and
/// `livery promote --at`, run as processes against a daemon that keeps its targets key offline
/// (`--offline-targets`): each publishes exactly the targets it signed, read back from
/// `/v1/tuf/` as a client of signed delivery reads them.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
struct OfflineSigningCommandTests {
    /// A signing folder in `folder` whose targets key is moved beside it (`targets.key`), and
    /// the daemon's signing.
    static func offlineSigning(in folder: TemporarySpecFolder) throws -> DaemonSigning {
        let signing = try SigningFolder.create(at: folder.url.appending(path: "signing"), now: Date())
        try FileManager.default.moveItem(
            at: signing.keyFile(of: TargetsMetadata.roleName), to: folder.url.appending(path: "targets.key"))
        return try DaemonSigning(folder: signing, offlineTargets: true)
    }

    /// The bytes of `path` on `server`.
    static func get(_ server: String, _ path: String) async throws -> Data {
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: server + path)))
        return data
    }

    /// The targets metadata the repository serves now, verified by `signing`'s root (version 0
    /// and no targets before the first).
    static func served(
        _ server: String, _ signing: DaemonSigning, environment: String? = nil
    ) async throws -> (version: Int, targets: [String: TargetFile]) {
        let tuf = environment.map { "/v1/environments/\($0)/tuf" } ?? "/v1/tuf"
        let status = try JSONSerialization.jsonObject(with: try await get(server, "\(tuf)/status")) as? [String: Any]
        let roles = status?["roles"] as? [String: Any]
        guard let version = (roles?["targets"] as? [String: Any])?["version"] as? Int else { return (0, [:]) }
        let targets = try SignedMetadata<TargetsMetadata>(
            bytes: try await get(server, "\(tuf)/metadata/\(version).targets.json"))
        try targets.verify(by: try signing.folder.latestRoot().signed)
        return (version, targets.signed.targets)
    }

    @Test func aRolloutStartsChangesAndCompletesSignedWithTheKey() async throws {
        let keys = try TemporarySpecFolder(prefix: "livery-offline-cli-keys")
        let signing = try Self.offlineSigning(in: keys)
        let setup = try await CommandTestDaemon(prefix: "livery-offline-cli", configure: { $0.signing = signing })
        defer { setup.serving.cancel() }
        let (local, server) = (setup.local, setup.server)
        let access = ["--server", server, "--token-file", local.url("token").path]
        let key = ["--sign-with", keys.url("targets.key").path]
        try local.write("round.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 3 }\n")
        let candidate = ["push", local.url("round.yaml").path, "--as", "box.yaml", "--rollout", "10%"]

        let first = try await LiveryProcess.run(["push", local.url("box.yaml").path] + key + access)
        #expect(first.status == 0 && first.output.contains("published box.yaml"), "\(first.output)")
        #expect(try await Self.served(server, signing).version == 1)

        let unsigned = try await LiveryProcess.run(candidate + access)
        #expect(unsigned.status == 1, "\(unsigned.output)")
        #expect(unsigned.output.contains("403 Targets not signed") && unsigned.output.contains("--sign-with KEY"))
        let started = try await LiveryProcess.run(candidate + key + access)
        #expect(started.status == 0 && started.output.contains("running, 10% of clients"), "\(started.output)")
        let afterStart = try await Self.served(server, signing)
        #expect(afterStart.version == 2 && TUFTargets.rollout(in: afterStart.targets)?.basisPoints == 1000)

        let unsignedSet = try await LiveryProcess.run(["rollout", "set", "50%"] + access)
        #expect(unsignedSet.status == 1 && unsignedSet.output.contains("403 Targets not signed"))
        let other = try TemporarySpecFolder(prefix: "livery-offline-cli-other")
        let otherFolder = try SigningFolder.create(at: other.url.appending(path: "signing"), now: Date())
        let otherKey = try await LiveryProcess.run(
            ["rollout", "set", "50%", "--sign-with", otherFolder.keyFile(of: TargetsMetadata.roleName).path] + access)
        #expect(otherKey.status == 1, "\(otherKey.output)")
        #expect(otherKey.output.contains("are not signed with this key"), "\(otherKey.output)")
        let widened = try await LiveryProcess.run(["rollout", "set", "50%"] + key + access)
        #expect(widened.status == 0 && widened.output.contains("running, 50% of clients"), "\(widened.output)")
        let afterSet = try await Self.served(server, signing)
        #expect(afterSet.version == 3 && TUFTargets.rollout(in: afterSet.targets)?.basisPoints == 5000)

        let completed = try await LiveryProcess.run(["rollout", "complete"] + key + access)
        #expect(completed.status == 0 && completed.output.contains("completed"), "\(completed.output)")
        let afterCompletion = try await Self.served(server, signing)
        #expect(afterCompletion.version == 4 && TUFTargets.rollout(in: afterCompletion.targets) == nil)
        let bundle = try #require(afterCompletion.targets["bundle.json"])
        #expect(
            try await CommandTestDaemon.eventually { bundle.matches(try await Self.get(server, "/v1/spec")) },
            "the daemon serves the candidate as signed")
        #expect(try String(contentsOf: setup.folder.url("box.yaml"), encoding: .utf8).contains("radius: 3"))
    }

    @Test func aPushPlannedForLaterCarriesItsSignedTargets() async throws {
        let keys = try TemporarySpecFolder(prefix: "livery-offline-cli-keys")
        let signing = try Self.offlineSigning(in: keys)
        let clock = ManualClock()
        let setup = try await CommandTestDaemon(
            prefix: "livery-offline-at",
            configure: {
                $0.signing = signing; $0.scheduleClock = clock
            })
        defer { setup.serving.cancel() }
        let access = ["--server", setup.server, "--token-file", setup.local.url("token").path]
        let push = ["push", setup.local.url("box.yaml").path, "--at", ScheduleTime.text(of: clock.now + 600)]

        let unsigned = try await LiveryProcess.run(push + access)
        #expect(unsigned.status == 1 && unsigned.output.contains("403 Targets not signed"), "\(unsigned.output)")
        let planned = try await LiveryProcess.run(push + ["--sign-with", keys.url("targets.key").path] + access)
        #expect(planned.status == 0 && planned.output.hasPrefix("scheduled "), "\(planned.output)")
        #expect(try await Self.served(setup.server, signing).version == 0, "nothing published before its time")

        clock.advance(by: 600)
        #expect(
            try await CommandTestDaemon.eventually { try await Self.served(setup.server, signing).version == 1 },
            "the targets signed when planned are published at its time")
        let bundle = try #require(try await Self.served(setup.server, signing).targets["bundle.json"])
        #expect(try await CommandTestDaemon.eventually { bundle.matches(try await Self.get(setup.server, "/v1/spec")) })
        #expect(try String(contentsOf: setup.folder.url("box.yaml"), encoding: .utf8).contains("radius: 2"))
    }

    @Test func aPromotionPlannedForLaterCarriesItsSignedTargets() async throws {
        let keys = try TemporarySpecFolder(prefix: "livery-offline-cli-keys")
        let signing = try Self.offlineSigning(in: keys)
        let clock = ManualClock()
        let setup = try await CommandTestDaemon(
            prefix: "livery-offline-promote", environments: ["production", "staging"],
            configure: {
                $0.signing = signing; $0.scheduleClock = clock
            })
        defer { setup.serving.cancel() }
        let access = ["--server", setup.server, "--token-file", setup.local.url("token").path]
        let key = ["--sign-with", keys.url("targets.key").path]
        // Staging's history records its files once the daemon loaded them; the push comes after.
        #expect(
            try await CommandTestDaemon.eventually {
                try await LiveryProcess.run(["history", "--server", setup.server, "--environment", "staging"]).output
                    .contains("edited on disk")
            })
        let staged = try await LiveryProcess.run(
            ["push", setup.local.url("box.yaml").path, "--environment", "staging"] + key + access)
        #expect(staged.status == 0, "\(staged.output)")
        let at = ScheduleTime.text(of: clock.now.addingTimeInterval(600))

        let unsigned = try await LiveryProcess.run(["promote", "staging", "production", "--at", at] + access)
        #expect(unsigned.status == 1 && unsigned.output.contains("403 Targets not signed"), "\(unsigned.output)")
        let withRevision = try await LiveryProcess.run(
            ["promote", "staging", "production", "--at", at, "--revision", "1"] + key + access)
        #expect(withRevision.status == 64 && withRevision.output.contains("leave out --revision"))
        let planned = try await LiveryProcess.run(["promote", "staging", "production", "--at", at] + key + access)
        #expect(planned.status == 0 && planned.output.hasPrefix("scheduled "), "\(planned.output)")
        #expect(try await Self.served(setup.server, signing, environment: "production").version == 0)

        clock.advance(by: 600)
        #expect(
            try await CommandTestDaemon.eventually {
                try await Self.served(setup.server, signing, environment: "production").version == 1
            }, "the planned targets are published at the promotion's time")
        let bundle = try #require(
            try await Self.served(setup.server, signing, environment: "production").targets["bundle.json"])
        #expect(
            try await CommandTestDaemon.eventually {
                bundle.matches(try await Self.get(setup.server, "/v1/environments/production/spec"))
            })
        #expect(
            try String(contentsOf: setup.folder.url("production/box.yaml"), encoding: .utf8).contains("radius: 2"))
    }
}
