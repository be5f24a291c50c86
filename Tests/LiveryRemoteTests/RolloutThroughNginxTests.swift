import AsyncHTTPClient
import Foundation
import LiveryHTTP
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

/// A staged rollout through the shipped nginx front (`deploy/nginx/livery.conf`): 300 clients
/// of the version protocol, each with its own instance name, and the daemon still answers a
/// handful of requests per change, one fetch per version.
@Suite(.heavy, .timeLimit(.minutes(5)), .inotifyShared)
struct RolloutThroughNginxTests {
    static let clients = 300

    @Test("a rollout, its widening and its abort reach 300 clients through nginx for O(1) daemon requests each")
    func rolloutThroughNginx() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rollout-nginx")
        let work = try TemporarySpecFolder(prefix: "livery-rollout-nginx-daemon")
        try folder.write("box.yaml", RolloutFleetTests.yaml(radius: 1))
        let token = "test-token-0123456789abcdef"
        let frontPort = try FreePort.pick()
        let daemon = try await ServeProcess(
            folder: folder.url, work: work.url, token: token,
            arguments: ["--state-dir", work.url.path] + NginxFront.warmArguments(port: frontPort))
        defer { daemon.kill() }
        let front = try await NginxFront(daemonPorts: [daemon.port], port: frontPort)
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.clients + 50
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = HTTPClient(eventLoopGroup: loop, configuration: .init(connectionPool: pool))
        let followers = (0..<Self.clients).map { VersionFollower(instance: "follower-\($0)") }
        let base = front.baseURL
        let tasks = followers.map { follower in Task { await follower.follow(base, client: client, wait: 10) } }
        let stable = try #require(try await daemon.currentETag(client: client))
        try await eventually { followers.allSatisfy { $0.etag == stable } }
        try await Task.sleep(for: .milliseconds(500))

        /// Daemon requests of the version protocol while `change` reaches every follower.
        func requests(for change: () async throws -> Void, until converged: @escaping () -> Bool) async throws -> Int {
            let before = try await daemon.requests(
                routes: ["/v1/version", "/v1/spec/{etag}"], statuses: [200, 304, 404], client: client)
            try await change()
            try await eventually { converged() }
            try await Task.sleep(for: .milliseconds(300))
            return try await daemon.requests(
                routes: ["/v1/version", "/v1/spec/{etag}"], statuses: [200, 304, 404], client: client) - before
        }
        func post(_ path: String, _ json: String) async throws -> [String: Any] {
            var request = HTTPClientRequest(url: daemon.url.absoluteString + path)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
            let response = try await client.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status.code == 200, "\(String(buffer: body))")
            return (try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
        }

        var rollout = Rollout(id: "", basisPoints: 1000, stable: stable, candidate: "")
        let started = try await requests {
            let body = try await post(
                "/v1/specs",
                #"{"files": {"box.yaml": "specs:\n  box:\n    - { type: CornerRadius, radius: 2 }\n"}, "rollout": "10%"}"#
            )
            rollout.id = body["id"] as? String ?? ""
            rollout.candidate = body["candidate"] as? String ?? ""
        } until: {
            followers.allSatisfy { $0.etag == rollout.version(for: $0.instance) }
        }
        let cohort = followers.filter { rollout.includes(instance: $0.instance ?? "") }.count
        rollout.basisPoints = 5000
        let widened = try await requests {
            _ = try await post("/v1/rollout", #"{"action": "set", "percent": 50}"#)
        } until: {
            followers.allSatisfy { $0.etag == rollout.version(for: $0.instance) }
        }
        let aborted = try await requests {
            _ = try await post("/v1/rollout", #"{"action": "abort"}"#)
        } until: {
            followers.allSatisfy { $0.etag == stable }
        }
        print(
            "rollout through nginx: \(Self.clients) clients, cohort \(cohort) at 10 %; daemon requests: start \(started), widen to 50 % \(widened), abort \(aborted)"
        )
        #expect((10...60).contains(cohort))
        for (step, count) in [("start", started), ("widen", widened), ("abort", aborted)] {
            #expect(count <= 25, "\(step): a handful of daemon requests per change, not one per client")
        }
        #expect(followers.allSatisfy { $0.failures == 0 })

        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        try await client.shutdown()
        try await loop.shutdownGracefully()
        try front.stop()
        daemon.stop()
    }
}
