import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryTUF
import LiveryTestSupport
import LiveryTesting
import Testing

/// The shipped nginx front (`deploy/nginx/livery.conf`) with a real nginx and its nchan module,
/// in front of two real `livery serve` processes on one specs folder that warm it and publish the
/// version signal to it (`--warm-front`), and 500 clients of the version protocol following
/// through it. One daemon is killed with SIGKILL, as a crash or a lost machine would; the front
/// is stopped and started again.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared)
struct FleetThroughNginxTests {
    static let clients = 500
    /// How long the shipped front holds a wait (`nchan_subscriber_timeout`) before it answers 408
    /// and the client asks the daemons.
    static let frontWait = Duration.seconds(10)

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// Requests for the version protocol (or only for `routes`) the daemons answered, from their
    /// own metrics.
    private static func daemonRequests(
        _ daemons: [ServeProcess], client: HTTPClient, routes: [String] = ["/v1/version", "/v1/spec/{etag}"]
    ) async throws -> Int {
        var total = 0
        for daemon in daemons {
            total += try await daemon.requests(routes: routes, statuses: [200, 304, 404], client: client)
        }
        return total
    }

    @Test(
        "one change reaches 500 clients through nginx for a handful of daemon requests; one daemon killed -9, all converge"
    )
    func fleet() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-daemons")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let token = "test-token-0123456789abcdef"
        let frontPort = try FreePort.pick()
        let warm = NginxFront.warmArguments(port: frontPort)
        let first = try await ServeProcess(folder: folder.url, work: work.url, token: token, arguments: warm)
        defer { first.kill() }
        let second = try await ServeProcess(folder: folder.url, work: work.url, token: token, arguments: warm)
        defer { second.kill() }
        let front = try await NginxFront(daemonPorts: [first.port, second.port], port: frontPort)
        let fleet = VersionFleet(count: Self.clients, following: front.baseURL, wait: 10)
        let (followers, client) = (fleet.followers, fleet.client)
        func converged(on etag: String?) -> Bool { fleet.converged(on: etag) }

        let initial = try await first.currentETag(client: client)
        try await eventually { converged(on: initial) }
        try await Task.sleep(for: .milliseconds(500))  // the followers are all waiting again
        let before = try await Self.daemonRequests([first, second], client: client)
        let signalsBefore = try await Self.daemonRequests([first, second], client: client, routes: ["/v1/version"])
        let start = ContinuousClock.now
        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        var pushed = initial
        try await eventually {
            pushed = try await first.currentETag(client: client)
            let other = try await second.currentETag(client: client)
            return pushed != initial && other == pushed
        }
        try await eventually { converged(on: pushed) }
        let reached = ContinuousClock.now - start
        let perChange = try await Self.daemonRequests([first, second], client: client) - before
        let signalsAtDaemons =
            try await Self.daemonRequests([first, second], client: client, routes: ["/v1/version"]) - signalsBefore
        print(
            "fleet: \(Self.clients) clients converged in \(reached); the daemons answered \(perChange) requests for the change"
        )
        #expect(perChange <= 25, "a handful of requests at the daemons for one change, not one per client")
        #expect(
            reached < Self.frontWait && signalsAtDaemons == 0,
            "the front's channel tells the fleet (\(signalsAtDaemons) signal requests at the daemons): not the fallback after a wait the front ends without news"
        )
        let fetched = followers.filter { $0.bundleSource != VersionFollower.carried }.count
        #expect(
            fetched == 0,
            "the signal the daemons publish to the front carries the bundle: no client asks for /v1/spec/{etag} (\(fetched) did)"
        )

        // One daemon is killed; the other alone tells the front of the next change.
        let failedBefore = followers.map(\.failures).reduce(0, +)
        first.kill()
        try folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        var last = pushed
        try await eventually {
            last = try await second.currentETag(client: client)
            return last != pushed
        }
        try await eventually { converged(on: last) }
        let failures = followers.map(\.failures).reduce(0, +) - failedBefore
        print("fleet: with one daemon killed -9, all converged; \(failures) failed requests were retried")
        #expect(failures == 0, "the front holds the waits, not the daemons: no client sees the kill")

        try await fleet.stop()
        try front.stop()
        second.stop()
        #expect(converged(on: last))
    }
    @Test("the front stopped and started again during a run: every follower ends on the version pushed meanwhile")
    func frontRestarted() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet-restart")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-restart-daemon")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let frontPort = try FreePort.pick()
        let daemon = try await ServeProcess(
            folder: folder.url, work: work.url, token: "test-token-0123456789abcdef",
            arguments: NginxFront.warmArguments(port: frontPort))
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port], port: frontPort)
        let fleet = VersionFleet(count: 100, following: front.baseURL, wait: 10)
        let (followers, client) = (fleet.followers, fleet.client)
        let initial = try await daemon.currentETag(client: client)
        try await eventually { followers.allSatisfy { $0.etag == initial } }
        try await Task.sleep(for: .milliseconds(500))  // the followers are all waiting again

        // The front goes away with the followers' waits, a version is pushed while it is away
        // (the daemon's warming and publishing find no front: they must not hold the change), and
        // it comes back empty: the followers' waits end without news, and they ask the daemon.
        await front.kill()
        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        var pushed = initial
        try await eventually {
            pushed = try await daemon.currentETag(client: client)
            return pushed != initial
        }
        try await Task.sleep(for: .seconds(1))  // the followers fail and retry meanwhile
        #expect(followers.allSatisfy { $0.etag == initial })
        try await front.start()
        let restarted = ContinuousClock.now
        // Sooner than a wait at the front: the daemon sends the publication the front missed again.
        try await eventually(within: Self.frontWait) { followers.allSatisfy { $0.etag == pushed } }
        print(
            "fleet restart: 100 followers on the new version \(ContinuousClock.now - restarted) after the front's restart; \(followers.map(\.failures).reduce(0, +)) failed requests retried"
        )

        try await fleet.stop()
        try front.stop()
        daemon.stop()
    }

    /// One client following a front that a warming daemon tells, through a proxy that records
    /// what the client asks for: once it has applied radius 1 and waits at the front.
    @MainActor private final class ProxiedFollower {
        let folder: TemporarySpecFolder
        let work: TemporarySpecFolder
        let daemon: ServeProcess
        let front: NginxFront
        /// Between the client and the front: what the client asked for, and what it was answered.
        let proxy: RecordingProxy
        let box = StyledBox()
        private var follow: Task<Void, Never>?

        /// `signing` (a folder made by ``LiveryTUF/SigningFolder/create(at:now:)``): the daemon
        /// signs with it, and the client verifies with its first root.
        init(_ name: String, signing: ((URL) throws -> SigningFolder)? = nil) async throws {
            folder = try TemporarySpecFolder(prefix: "livery-fleet-\(name)")
            work = try TemporarySpecFolder(prefix: "livery-fleet-\(name)-daemon")
            try folder.write("box.yaml", FleetThroughNginxTests.yaml(radius: 1))
            let signing = try signing?(work.url.appending(path: "signing"))
            let frontPort = try FreePort.pick()
            daemon = try await ServeProcess(
                folder: folder.url, work: work.url, token: "test-token-0123456789abcdef",
                arguments: NginxFront.warmArguments(port: frontPort)
                    + (signing.map { ["--signing", $0.url.path] } ?? []))
            front = try await NginxFront(daemonPorts: [daemon.port], port: frontPort)
            proxy = try await RecordingProxy.start(upstream: front.baseURL)
            let provider = TraitsProvider()
            provider.register(box, as: "box")
            let (url, trust) = (proxy.url, signing.map { RemoteSpecSource.Trust.tuf(root: $0.rootFile(version: 1)) })
            follow = Task { await provider.follow(url: url, mode: .version(wait: .seconds(30)), trust: trust) }
            try await eventually { self.box.cornerRadius == 1 }
            try await Task.sleep(for: .milliseconds(500))  // waiting at the front
        }

        /// What the client asked for while `box.yaml` became `yaml` and it applied `radius`.
        func requests(saving yaml: String, until radius: Double) async throws -> ArraySlice<RecordingProxy.Seen> {
            let mark = proxy.seen.count
            try folder.atomicSave("box.yaml", yaml)
            try await eventually { self.box.cornerRadius == radius }
            return proxy.seen[mark...]
        }

        func stop() async throws {
            follow?.cancel()
            await follow?.value
            try front.stop()  // first: the proxy's wait at the front ends with it, not after 10 s
            try await proxy.stop()
            daemon.stop()
        }
    }

    @Test(
        "the signal the front holds carries the bundle: a push is applied from that one answer; a large one is fetched")
    @MainActor func theSignalCarriesTheBundle() async throws {
        let follower = try await ProxiedFollower("carried")
        defer { follower.daemon.kill() }
        let small = try await follower.requests(saving: Self.yaml(radius: 2), until: 2)
        #expect(small.contains { $0.path == "/v1/version" && $0.status == 200 })
        #expect(
            !small.contains { $0.path.hasPrefix("/v1/spec") },
            "applied from the signal, without asking for /v1/spec/{etag}: \(small.map(\.path))")

        // Past the bound, the signal names the version alone and the client fetches it.
        let padding = (0..<8_000).map { "  pad\($0):\n    - { type: CornerRadius, radius: \($0) }\n" }.joined()
        let large = try await follower.requests(saving: Self.yaml(radius: 3) + padding, until: 3)
        #expect(large.contains { $0.path.hasPrefix("/v1/spec/") && $0.status == 200 }, "\(large.map(\.path))")
        try await follower.stop()
    }

    @Test("a verifying client through the front: the signal carries the metadata and the bundle, nothing is fetched")
    @MainActor func theSignalCarriesWhatVerifies() async throws {
        let follower = try await ProxiedFollower("signed") { try SigningFolder.create(at: $0, now: Date()) }
        defer { follower.daemon.kill() }
        let seen = try await follower.requests(saving: Self.yaml(radius: 2), until: 2)
        #expect(
            seen.allSatisfy { $0.path == "/v1/version" },
            "verified from the signal alone, no metadata, target or bundle fetched: \(seen.map(\.path))")
        try await follower.stop()
    }

    @Test(
        "verifying clients behind a front that missed a change: a few metadata requests at the daemon, not two per client"
    )
    @MainActor func verifyingBehindAnUntoldFront() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet-untold-signed")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-untold-signed-daemon")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let signing = try SigningFolder.create(at: work.url.appending(path: "signing"), now: Date())
        // No --warm-front: the clients learn of a change when their wait at the front ends (408),
        // and verify by fetching the metadata through the front.
        let daemon = try await ServeProcess(
            folder: folder.url, work: work.url, token: "test-token-0123456789abcdef",
            arguments: ["--signing", signing.url.path])
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port])
        let root = signing.rootFile(version: 1)
        let boxes = (0..<40).map { _ in StyledBox() }
        let follows = boxes.map { box in
            let provider = TraitsProvider()
            provider.register(box, as: "box")
            return Task {
                await provider.follow(url: front.baseURL, mode: .version(wait: .seconds(30)), trust: .tuf(root: root))
            }
        }
        try await eventually { boxes.allSatisfy { $0.cornerRadius == 1 } }
        let metadata = ["/v1/tuf/metadata/{file}"]
        let before = try await daemon.requests(routes: metadata, statuses: [200, 404], client: .shared)

        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await eventually(within: Self.frontWait + .seconds(10)) { boxes.allSatisfy { $0.cornerRadius == 2 } }
        let atDaemon = try await daemon.requests(routes: metadata, statuses: [200, 404], client: .shared) - before
        print("fleet untold, verifying: 40 clients verified the change; \(atDaemon) metadata requests at the daemon")
        #expect(
            atDaemon <= 25,
            "the front keeps timestamp.json and a missing next root a second: not two requests per client at the daemon"
        )

        for follow in follows { follow.cancel() }
        for follow in follows { await follow.value }
        try front.stop()
        daemon.stop()
    }

    @Test("a change the front never heard of: the client's wait there ends (408), and its check finds it")
    @MainActor func changeTheFrontMissed() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet-missed")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-missed-daemon")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        // No --warm-front: the daemon never publishes to this front.
        let daemon = try await ServeProcess(folder: folder.url, work: work.url, token: "test-token-0123456789abcdef")
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port])
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let follow = Task { await provider.follow(url: front.baseURL, mode: .version(wait: .seconds(30))) }
        try await eventually { box.cornerRadius == 1 }
        try await Task.sleep(for: .milliseconds(500))  // waiting at the front

        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        let pushed = ContinuousClock.now
        try await eventually(within: Self.frontWait + .seconds(5)) { box.cornerRadius == 2 }
        print(
            "fleet missed: the client applied a change the front never heard of after \(ContinuousClock.now - pushed)")

        follow.cancel()
        await follow.value
        try front.stop()
        daemon.stop()
    }

    @Test("waits that end without a change are held at the front: a few requests at the daemon, not one per client")
    func waitsWithoutAChange() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet-rounds")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-rounds-daemon")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let daemon = try await ServeProcess(folder: folder.url, work: work.url, token: "test-token-0123456789abcdef")
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port])
        let fleet = VersionFleet(count: 100, following: front.baseURL, wait: 30)
        let (followers, client) = (fleet.followers, fleet.client)
        let initial = try await daemon.currentETag(client: client)
        try await eventually { followers.allSatisfy { $0.etag == initial } }

        // More than one of the front's waits with nothing new: each client's wait ends (408),
        // it asks once without waiting (the front passes that on, cached for a second) and
        // waits again.
        let signalsBefore = followers.map(\.signals).reduce(0, +)
        let daemonBefore = try await Self.daemonRequests([daemon], client: client)
        try await Task.sleep(for: Self.frontWait + .seconds(2))
        let signals = followers.map(\.signals).reduce(0, +) - signalsBefore
        let atDaemon = try await Self.daemonRequests([daemon], client: client) - daemonBefore
        print("fleet waits: 100 clients, 12 s without a change: \(signals) signals at nginx, \(atDaemon) at the daemon")
        #expect(signals <= 100 * 4, "a wait, a check and a wait again each, not a request every 50 ms")
        #expect(atDaemon <= 8, "the checks of a second share one request at the daemon, not one per client")
        #expect(followers.allSatisfy { $0.failures == 0 })

        try await fleet.stop()
        try front.stop()
        daemon.stop()
    }
}
