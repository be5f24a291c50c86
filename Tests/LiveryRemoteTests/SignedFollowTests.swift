import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTUF
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// `provider.follow(url:trust: .tuf(root:))` against the real daemon's TUF repository
/// (`--signing`) through a hostile front (`Tests/Browser/hostile_front.py`, a child process):
/// each attack is refused, reported naming the check, and the last good traits stay.
@Suite(.timeLimit(.minutes(2)), .inotifyShared)
@MainActor struct SignedFollowTests {
    nonisolated private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// The daemon serving a signed spec set, and the hostile front before it.
    private struct Signed {
        let folder: TemporarySpecFolder
        let scratch: TemporarySpecFolder
        let signing: SigningFolder
        let running: RunningDaemon
        let front: ChildProcess
        let frontURL: URL

        /// With `environments`, the folder holds one folder per environment (`production/box.yaml`,
        /// `staging/box.yaml`, radius 1 and 7), each a repository of its own.
        static func start(environments: Bool = false) async throws -> Signed {
            let scratch = try TemporarySpecFolder(prefix: "livery-tuf-client")
            let signing = try SigningFolder.create(at: scratch.url.appending(path: "signing"), now: Date())
            let daemonSigning = try DaemonSigning(folder: signing)
            let folder = try TemporarySpecFolder(prefix: "livery-tuf-specs")
            if environments {
                try folder.write("production/box.yaml", yaml(radius: 1))
                try folder.write("staging/box.yaml", yaml(radius: 7))
            } else {
                try folder.write("box.yaml", yaml(radius: 1))
            }
            let running = try await RunningDaemon.start(folder: folder) {
                $0.signing = daemonSigning
                $0.stateDirectory = scratch.url.appending(path: "state")
                if environments { $0.environmentsRoot = folder.url }
            }
            let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "Browser/hostile_front.py")
            let front = ChildProcess("python3", [script.path, running.url.absoluteString])
            try await front.start()
            var lines = front.lines.makeAsyncIterator()
            let base = try #require(try await lines.next())
            return Signed(
                folder: folder, scratch: scratch, signing: signing, running: running, front: front,
                frontURL: try #require(URL(string: base)))
        }

        /// What a program ships and trusts: the first root.
        var root: URL { signing.rootFile(version: 1) }

        func attack(_ name: String) async throws {
            var request = HTTPClientRequest(
                url: frontURL.appending(path: "hostile-front/attack/\(name)").absoluteString)
            request.method = .POST
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status.code == 204, "attack \(name)")
        }

        func stop() async {
            front.terminate()
            await front.waitUntilExit()
            await running.stop()
        }
    }

    /// The time the client checks expiry against, which a test moves on.
    private final class TestNow: Sendable {
        let date = Mutex(Date())
    }

    /// A provider following the front with TUF, and the refusals it was told of.
    @MainActor private final class Follower {
        let box = StyledBox()
        let applied = AppliedVersion()
        let now = TestNow()
        var refusals: [RemoteError] = []
        private var task: Task<Void, Never>?

        init(_ signed: Signed, cache: URL, environment: String? = nil) {
            let provider = TraitsProvider()
            provider.register(box, as: "box")
            let (url, root, now) = (signed.frontURL, signed.root, self.now)
            let configuration = RemoteSpecSource.Configuration(
                connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
                identity: ClientIdentity(fitting: "tuf-test", instance: "t-1", appVersion: "1.0"),
                cacheDirectory: cache, now: { now.date.withLock { $0 } })
            task = Task { [applied] in
                await provider.follow(
                    url: url, environment: environment, mode: .version(wait: .seconds(2)),
                    configuration: configuration, trust: .tuf(root: root),
                    onUpdate: { [weak self] result in
                        if case .failure(let error as RemoteError) = result, error.code == .refused {
                            self?.refusals.append(error)
                        }
                    }, appliedVersion: applied)
            }
        }

        func stop() async {
            task?.cancel()
            await task?.value
        }
    }

    /// Applies radius 1 then 2 through the front (so it has passed older files), begins `attack`,
    /// publishes radius 3, and returns the check the client's refusal named.
    private func refusedCheck(_ attack: String, advanceClock: TimeInterval = 0) async throws -> String {
        let signed = try await Signed.start()
        let cache = try TemporarySpecFolder(prefix: "livery-tuf-cache")
        let follower = Follower(signed, cache: cache.url)
        try await eventually { follower.box.cornerRadius == 1 }
        try signed.folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await eventually { follower.box.cornerRadius == 2 }
        let good = follower.applied.etag

        try await signed.attack(attack)
        follower.now.date.withLock { $0 += advanceClock }
        try signed.folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        try await eventually { !follower.refusals.isEmpty }
        let check = try #require(follower.refusals.first?.underlying as? TUFRefusal).check
        try await eventually {
            signed.running.daemon.clients.entries().contains { $0.header.note?.hasPrefix("tuf: \(check):") == true }
        }
        #expect(follower.box.cornerRadius == 2, "the last good traits stay")
        #expect(follower.applied.etag == good)
        await follower.stop()
        await signed.stop()
        return check
    }

    @Test("a flipped byte of the bundle is refused: target hash")
    func flippedByte() async throws {
        #expect(try await refusedCheck("flip") == "target hash")
    }

    @Test("an older bundle for the one signed is refused by its length or hash")
    func olderBundle() async throws {
        #expect(["target length", "target hash"].contains(try await refusedCheck("older-target")))
    }

    @Test("an older snapshot for the one the timestamp names is refused by its length or hash")
    func olderSnapshot() async throws {
        #expect(["snapshot length", "snapshot hash"].contains(try await refusedCheck("older-snapshot")))
    }

    @Test("older targets for the version the snapshot names are refused: targets version")
    func olderTargets() async throws {
        #expect(try await refusedCheck("older-targets") == "targets version")
    }

    @Test("a timestamp frozen past its expiry (the client's clock two days on) is refused: timestamp expired")
    func frozenTimestamp() async throws {
        #expect(try await refusedCheck("freeze-timestamp", advanceClock: 2 * 86_400) == "timestamp expired")
    }

    @Test("a restart with the kept metadata refuses a rolled-back timestamp and keeps the cached traits")
    func restartRefusesRollback() async throws {
        let signed = try await Signed.start()
        let cache = try TemporarySpecFolder(prefix: "livery-tuf-cache")
        let first = Follower(signed, cache: cache.url)
        try await eventually { first.box.cornerRadius == 1 }
        try signed.folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await eventually { first.box.cornerRadius == 2 }
        await first.stop()

        try await signed.attack("older-timestamp")
        let second = Follower(signed, cache: cache.url)
        try await eventually { second.box.cornerRadius == 2 }  // from the offline cache
        try signed.folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        try await eventually { !second.refusals.isEmpty }
        #expect((second.refusals.first?.underlying as? TUFRefusal)?.check == "timestamp rollback")
        #expect(second.box.cornerRadius == 2)
        await second.stop()
        await signed.stop()
    }

    @Test("a follower of an environment verifies with its repository, its trusted metadata kept apart")
    func followsAnEnvironment() async throws {
        let signed = try await Signed.start(environments: true)
        let cache = try TemporarySpecFolder(prefix: "livery-tuf-cache")
        // Production's repository goes versions ahead of staging's, in the same cache folder.
        let production = Follower(signed, cache: cache.url, environment: "production")
        for radius in 2...4 {
            try signed.folder.atomicSave("production/box.yaml", Self.yaml(radius: radius))
            try await eventually { production.box.cornerRadius == Double(radius) }
        }
        await production.stop()

        let staging = Follower(signed, cache: cache.url, environment: "staging")
        try await eventually { staging.box.cornerRadius == 7 }
        try signed.folder.atomicSave("staging/box.yaml", Self.yaml(radius: 8))
        try await eventually { staging.box.cornerRadius == 8 }
        #expect(staging.refusals.isEmpty, "\(staging.refusals)")
        await staging.stop()
        await signed.stop()
    }

    @Test("a front freezing the signal and the timestamp is noticed when the timestamp expires: timestamp expired")
    func frozenSignal() async throws {
        let signed = try await Signed.start()
        let cache = try TemporarySpecFolder(prefix: "livery-tuf-cache")
        let follower = Follower(signed, cache: cache.url)
        try await eventually { follower.box.cornerRadius == 1 }
        let good = follower.applied.etag

        // No version is new, and the front says so forever: only the timestamp's expiry tells.
        try await signed.attack("freeze")
        follower.now.date.withLock { $0 += 2 * 86_400 }
        try await eventually { !follower.refusals.isEmpty }
        #expect((follower.refusals.first?.underlying as? TUFRefusal)?.check == "timestamp expired")
        try await eventually {
            signed.running.daemon.clients.entries().contains {
                $0.header.note?.hasPrefix("tuf: timestamp expired:") == true && $0.header.refused == nil
            }
        }
        #expect(follower.box.cornerRadius == 1, "the last good traits stay")
        #expect(follower.applied.etag == good)
        await follower.stop()
        await signed.stop()
    }

    @Test(
        "a root rotated on the daemon (livery signing rotate root) is followed to its new version, pushes still applied"
    )
    func followsARootRotation() async throws {
        let signed = try await Signed.start()
        let cache = try TemporarySpecFolder(prefix: "livery-tuf-cache")
        let follower = Follower(signed, cache: cache.url)
        try await eventually { follower.box.cornerRadius == 1 }

        #expect(try signed.signing.rotate("root", now: Date()) == 2)
        try signed.folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await eventually { follower.box.cornerRadius == 2 }
        let kept = cache.url.appending(components: "livery-tuf", "root.json")
        let root = try SignedMetadata<RootMetadata>(bytes: Array(try Data(contentsOf: kept)))
        #expect(root.signed.version == 2, "the client trusts the rotated root")
        #expect(follower.refusals.isEmpty, "\(follower.refusals)")
        await follower.stop()
        await signed.stop()
    }
}
