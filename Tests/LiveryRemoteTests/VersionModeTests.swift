import Foundation
import Livery
import LiveryRemote
import LiveryTesting
import Testing

/// The cacheable version mode against a real HTTP server in this process (a stand-in for the
/// daemon's version routes), serving a spec file of a temporary folder.
@Suite(.timeLimit(.minutes(1)))
struct VersionModeTests {
    private static let configuration = RemoteSpecSource.Configuration(
        connectTimeout: .seconds(1), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
        identity: ClientIdentity(fitting: "version-test", instance: "i-1", appVersion: "1.0"))

    @Test("a new version is fetched once from its immutable URL; an unchanged one is only a 304")
    func followsVersions() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-version")
        try folder.write("box.json", bundle(radius: 1))
        let server = try await VersionStandIn.start(serving: folder.url("box.json"))
        let client = UpdateCollector(
            RemoteSpecSource(
                url: server.url, mode: .version(wait: .seconds(1)), configuration: Self.configuration))
        try await client.waitForLoaded(1)
        let first = try #require(client.updates.first?.version?.etag)
        try await eventually { server.seen.filter { $0.status == 304 }.count >= 2 }
        #expect(server.seen.filter { $0.path.hasPrefix("/v1/spec/") }.count == 1)

        try folder.atomicSave("box.json", bundle(radius: 2))
        try await client.waitForLoaded(2)
        // Before the stop: a stopping server still answers the wait the client had just sent.
        let seen = server.seen
        await client.cancel()
        await server.stop()
        #expect(client.loaded.map(radius) == [1, 2])
        #expect(client.failures.isEmpty)
        #expect(seen.filter { $0.path.hasPrefix("/v1/spec/") }.map(\.status) == [200, 200])
        #expect(seen.first?.path == "/v1/version" && seen.first?.since == nil)
        let quoted = first.dropFirst().dropLast()
        #expect(seen.filter { $0.status == 304 }.allSatisfy { $0.since.map { $0[...] } == quoted })
        #expect(client.updates.last?.version?.endpoint == server.url)
    }

    @Test("every request says who the client is, and after a load is applied, which version")
    @MainActor func identifiesTheClient() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-version")
        try folder.write("box.json", bundle(radius: 3))
        let server = try await VersionStandIn.start(serving: folder.url("box.json"))
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let follow = Task {
            await provider.follow(url: server.url, mode: .version(wait: .seconds(1)), configuration: Self.configuration)
        }
        try await eventually { box.cornerRadius == 3 }
        try await eventually { server.seen.last?.applied != nil }
        follow.cancel()
        await follow.value
        await server.stop()
        let headers = try server.seen.map { try #require($0.client).get() }
        #expect(headers.allSatisfy { $0.identity == Self.configuration.identity })
        #expect(headers.first?.applied == nil, "nothing is applied before the first load")
        let applied = try #require(headers.last?.applied)
        #expect(server.seen.contains { $0.path == "/v1/spec/" + applied.dropFirst().dropLast() })
    }
}

extension VersionStandIn.Seen {
    /// The applied ETag the request's header reported, if it had a header that parsed.
    var applied: String? {
        guard case .success(let header)? = client else { return nil }
        return header.applied
    }
}
