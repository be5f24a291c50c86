import AsyncHTTPClient
import Foundation
import LiveryTesting
import NIOPosix
import Testing

/// The shipped nginx front (`deploy/nginx/livery.conf`) with a real nginx, in front of two real
/// daemons on one specs folder, and 500 clients of the version protocol following through it.
@Suite(.timeLimit(.minutes(3)), .inotifyShared)
struct FleetThroughNginxTests {
    static let clients = 500

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// Requests for the version protocol the daemons answered, from their own metrics.
    private static func daemonRequests(_ daemons: [RunningDaemon]) -> Int {
        daemons.map { daemon in
            let metrics = daemon.daemon.metrics.render()
            return [200, 304, 404].map { status in
                RunningDaemon.count(in: metrics, route: "/v1/version", status: status)
                    + RunningDaemon.count(in: metrics, route: "/v1/spec/{etag}", status: status)
            }.reduce(0, +)
        }.reduce(0, +)
    }

    @Test(
        "one change reaches 500 clients through nginx for a handful of daemon requests; one daemon stopped, all converge"
    )
    func fleet() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-fleet")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let first = try await RunningDaemon.start(folder: folder)
        let second = try await RunningDaemon.start(folder: folder)
        let front = try NginxFront(daemonPorts: [first.port, second.port])
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.clients + 50
        // Its own event loop, so that 500 followers do not starve the clients of other tests.
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = HTTPClient(eventLoopGroup: loop, configuration: .init(connectionPool: pool))
        let followers = (0..<Self.clients).map { _ in VersionFollower() }
        let base = front.baseURL
        let tasks = followers.map { follower in
            Task { await follower.follow(base, client: client, wait: 10) }
        }
        func converged(on etag: String?) -> Bool { followers.allSatisfy { $0.etag == etag } }
        func current() -> String? { first.daemon.hub.snapshot?.etag.description }

        let initial = current()
        try await eventually { converged(on: initial) }
        try await Task.sleep(for: .milliseconds(500))  // the followers are all waiting again
        let before = Self.daemonRequests([first, second])
        let start = ContinuousClock.now
        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await eventually { current() != initial && second.daemon.hub.snapshot?.etag.description == current() }
        let pushed = current()
        try await eventually { converged(on: pushed) }
        let reached = ContinuousClock.now - start
        let perChange = Self.daemonRequests([first, second]) - before
        print(
            "fleet: \(Self.clients) clients converged in \(reached); the daemons answered \(perChange) requests for the change"
        )
        #expect(perChange <= 25, "a handful of requests at the daemons for one change, not one per client")

        await first.stop()
        try folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        try await eventually { second.daemon.hub.snapshot?.etag.description != pushed }
        let last = second.daemon.hub.snapshot?.etag.description
        try await eventually { converged(on: last) }
        let failures = followers.map(\.failures).reduce(0, +)
        print("fleet: with one daemon stopped, all converged; \(failures) failed requests were retried")

        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        try await client.shutdown()
        try await loop.shutdownGracefully()
        try front.stop()
        await second.stop()
        #expect(converged(on: last))
    }
}
