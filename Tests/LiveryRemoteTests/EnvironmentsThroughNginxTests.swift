import AsyncHTTPClient
import Foundation
import LiveryHTTP
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import Testing

/// The shipped nginx front in front of a daemon of several environments: the followers of one
/// environment reach it through the front's cached routes, as the default environment's do.
@Suite(.heavy, .timeLimit(.minutes(3)), .inotifyShared)
struct EnvironmentsThroughNginxTests {
    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// The version protocol's requests of the environment routes the daemon answered.
    private static func environmentRequests(_ daemon: ServeProcess, client: HTTPClient) async throws -> Int {
        try await daemon.requests(
            routes: ["/v1/version", "/v1/spec/{etag}"].map { EnvironmentPath.path($0, environment: nil) },
            statuses: [200, 304, 404], client: client)
    }

    @Test("a change to staging reaches 200 staging followers through nginx for a handful of daemon requests")
    func stagingFleet() async throws {
        let root = try TemporarySpecFolder(prefix: "livery-fleet-environments")
        let work = try TemporarySpecFolder(prefix: "livery-fleet-environments-daemon")
        try root.write("production/box.yaml", Self.yaml(radius: 1))
        try root.write("staging/box.yaml", Self.yaml(radius: 1))
        let daemon = try await ServeProcess(
            folder: root.url, work: work.url, token: "test-token-0123456789abcdef", environments: true,
            arguments: ["--default-environment", "production"])
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port])
        let fleet = VersionFleet(count: 200, following: front.baseURL, wait: 10, environment: "staging")
        let client = fleet.client
        let staging = URL(string: "\(daemon.url.absoluteString)/v1/environments/staging")!
        func stagingETag() async throws -> String? {
            let response = try await client.execute(
                HTTPClientRequest(url: "\(staging.absoluteString)/spec"), timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1 << 20)
            return response.headers.first(name: "ETag")
        }
        let initial = try await stagingETag()
        try await eventually { fleet.converged(on: initial) }
        try await Task.sleep(for: .milliseconds(500))  // the followers are all waiting again

        // A change to production: the staging followers stay on staging's version.
        let production = try await daemon.currentETag(client: client)
        try root.atomicSave("production/box.yaml", Self.yaml(radius: 5))
        try await eventually { try await daemon.currentETag(client: client) != production }
        try await Task.sleep(for: .milliseconds(500))
        #expect(fleet.converged(on: initial), "a push to production reached staging's followers")

        let before = try await Self.environmentRequests(daemon, client: client)
        try root.atomicSave("staging/box.yaml", Self.yaml(radius: 2))
        var pushed = initial
        try await eventually {
            pushed = try await stagingETag()
            return pushed != initial
        }
        try await eventually { fleet.converged(on: pushed) }
        let perChange = try await Self.environmentRequests(daemon, client: client) - before
        print("fleet environments: 200 staging clients converged; the daemon answered \(perChange) requests")
        #expect(perChange <= 25, "a handful of requests at the daemon for one change, not one per client")

        try await fleet.stop()
        try front.stop()
        daemon.stop()
    }
}
