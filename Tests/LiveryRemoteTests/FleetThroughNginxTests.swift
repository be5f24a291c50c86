import AsyncHTTPClient
import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// The shipped nginx front (`deploy/nginx/livery.conf`) with a real nginx, in front of two real
/// `livery serve` processes on one specs folder that warm it (`--warm-front`), and 500 clients
/// of the version protocol following through it. One daemon is killed with SIGKILL, as a crash
/// or a lost machine would; the front is stopped and started again.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared)
struct FleetThroughNginxTests {
    static let clients = 500

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// Requests for the version protocol the daemons answered, from their own metrics.
    private static func daemonRequests(_ daemons: [ServeProcess], client: HTTPClient) async throws -> Int {
        var total = 0
        for daemon in daemons {
            total += try await daemon.requests(
                routes: ["/v1/version", "/v1/spec/{etag}"], statuses: [200, 304, 404], client: client)
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
        print(
            "fleet: \(Self.clients) clients converged in \(reached); the daemons answered \(perChange) requests for the change"
        )
        #expect(perChange <= 25, "a handful of requests at the daemons for one change, not one per client")
        let notCached = followers.filter { $0.bundleCacheStatus != "HIT" }.count
        #expect(
            notCached == 0,
            "the daemons warm the front before the signal names the version: every client's GET /v1/spec/{etag} is a cache hit, none queued behind nginx's cache lock"
        )

        // The daemon that holds the followers' wait, through nginx, is killed while it holds it.
        try await Task.sleep(for: .milliseconds(500))
        var holder = first
        try await eventually {
            holder = try await first.waitingClients(client: client) > 0 ? first : second
            return try await holder.waitingClients(client: client) > 0
        }
        let survivor = holder === first ? second : first
        let failedBefore = followers.map(\.failures).reduce(0, +)
        holder.kill()
        try folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        var last = pushed
        try await eventually {
            last = try await survivor.currentETag(client: client)
            return last != pushed
        }
        try await eventually { converged(on: last) }
        let failures = followers.map(\.failures).reduce(0, +) - failedBefore
        print(
            "fleet: with the daemon holding the wait killed -9, all converged; \(failures) failed requests were retried"
        )
        #expect(failures == 0, "nginx moves the wait the killed daemon held to the other one: no client sees the kill")

        try await fleet.stop()
        try front.stop()
        survivor.stop()
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
        // (the daemon's warming finds no front: it must not hold the change), and it comes back.
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
        try await eventually { followers.allSatisfy { $0.etag == pushed } }
        print(
            "fleet restart: 100 followers on the new version after the front's restart; \(followers.map(\.failures).reduce(0, +)) failed requests retried"
        )

        try await fleet.stop()
        try front.stop()
        daemon.stop()
    }

    @Test("waits that end without a change: one request per round at the daemon, one per round per client")
    func roundsWithoutAChange() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet-rounds")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-rounds-daemon")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let daemon = try await ServeProcess(folder: folder.url, work: work.url, token: "test-token-0123456789abcdef")
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port])
        let fleet = VersionFleet(count: 100, following: front.baseURL, wait: 2)
        let (followers, client) = (fleet.followers, fleet.client)
        let initial = try await daemon.currentETag(client: client)
        try await eventually { followers.allSatisfy { $0.etag == initial } }

        // Three rounds of 2 s with nothing new.
        let signalsBefore = followers.map(\.signals).reduce(0, +)
        let daemonBefore = try await Self.daemonRequests([daemon], client: client)
        try await Task.sleep(for: .seconds(6))
        let signals = followers.map(\.signals).reduce(0, +) - signalsBefore
        let atDaemon = try await Self.daemonRequests([daemon], client: client) - daemonBefore
        print("fleet rounds: 100 clients, 6 s of 2 s waits: \(signals) signals at nginx, \(atDaemon) at the daemon")
        // A round each (a fourth may begin), and one early answer where a wait started just
        // before the grid's instant; not a request every 50 ms from a stale cached 304.
        #expect(signals <= 100 * 5)
        #expect(atDaemon <= 8, "one request per round at the daemon, not one per client")
        #expect(followers.allSatisfy { $0.failures == 0 })

        try await fleet.stop()
        try front.stop()
        daemon.stop()
    }
}
