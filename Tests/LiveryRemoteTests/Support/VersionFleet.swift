import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// `count` followers of the version protocol at `base`, on an HTTP client and event loop of their
/// own, so that hundreds of followers do not starve the clients of other tests.
struct VersionFleet {
    let followers: [VersionFollower]
    /// The fleet's client, also for the test's own requests to the daemons.
    let client: HTTPClient
    private let loop: MultiThreadedEventLoopGroup
    private let tasks: [Task<Void, Never>]

    init(count: Int, following base: URL, wait: Int, environment: String? = nil) {
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = count + 50
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = HTTPClient(eventLoopGroup: loop, configuration: .init(connectionPool: pool))
        let followers = (0..<count).map { _ in VersionFollower(environment: environment) }
        self.tasks = followers.map { follower in
            Task { await follower.follow(base, client: client, wait: wait) }
        }
        (self.followers, self.client, self.loop) = (followers, client, loop)
    }

    /// Whether every follower has applied `etag`.
    func converged(on etag: String?) -> Bool { followers.allSatisfy { $0.etag == etag } }

    /// Stops every follower, then the client and its event loop.
    func stop() async throws {
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        try await client.shutdown()
        try await loop.shutdownGracefully()
    }
}
