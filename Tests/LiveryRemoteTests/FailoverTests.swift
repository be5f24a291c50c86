import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// Several endpoints: real daemons on loopback ports, stopped one after the other; the requests
/// each answered are counted by the daemon's own metrics.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct FailoverTests {
    private static let configuration = RemoteSpecSource.Configuration(
        connectTimeout: .seconds(1), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)))

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// Three daemons serving folders with the same file, so the same bundle and ETag.
    private static func startThree(
        radius: Int
    ) async throws -> (folders: [TemporarySpecFolder], daemons: [RunningDaemon]) {
        var folders: [TemporarySpecFolder] = []
        var daemons: [RunningDaemon] = []
        for _ in 0..<3 {
            let folder = try TemporarySpecFolder(prefix: "livery-failover")
            try folder.write("box.yaml", yaml(radius: radius))
            folders.append(folder)
            daemons.append(try await RunningDaemon.start(folder: folder))
        }
        return (folders, daemons)
    }

    @Test("a stopped daemon's clients move on to the next, keep their ETag and download nothing twice")
    func movesOnWithoutRefetching() async throws {
        let (folders, daemons) = try await Self.startThree(radius: 1)
        let (a, b, c) = (daemons[0], daemons[1], daemons[2])
        let client = UpdateCollector(
            RemoteSpecSource(
                urls: daemons.map(\.url), mode: .longPoll(wait: .seconds(1)), configuration: Self.configuration))
        let first = try #require(try await client.waitForLoaded(1).first)
        #expect(radius(first) == 1)
        #expect(client.updates.first?.version?.endpoint == a.url)
        #expect(a.bundleRequests(status: 200) == 1)

        await a.stop()
        // On b with a's ETag: the same bundle is a 304 there, never a second download.
        try await eventually { b.bundleRequests(status: 304) >= 2 }
        #expect(b.bundleRequests(status: 200) == 0)
        #expect(client.loaded.count == 1)
        let failure = try #require(client.failures.first as? RemoteError)
        #expect(failure.url.hasPrefix(a.url.absoluteString))

        // A change reaches the client from b, the endpoint it is on now.
        try folders[1].atomicSave("box.yaml", Self.yaml(radius: 2))
        try folders[2].atomicSave("box.yaml", Self.yaml(radius: 2))
        try await client.waitForLoaded(2)
        #expect(client.updates.last?.version?.endpoint == b.url)
        #expect(b.bundleRequests(status: 200) == 1)

        await b.stop()
        try await eventually { c.bundleRequests(status: 304) >= 2 }
        await client.cancel()
        await c.stop()
        #expect(client.loaded.map(radius) == [1, 2])
        #expect(c.bundleRequests(status: 200) == 0)
        #expect(client.updates.compactMap(\.version?.etag).count == 2)
    }

    @Test("an event stream moves on to the next daemon and sees the next edit there")
    func eventStreamMovesOn() async throws {
        let (folders, daemons) = try await Self.startThree(radius: 1)
        let client = UpdateCollector(
            RemoteSpecSource(
                urls: daemons.map(\.url), mode: .serverSentEvents(heartbeat: .seconds(2)),
                configuration: Self.configuration))
        try await client.waitForLoaded(1)
        await daemons[0].stop()
        let streams = { RunningDaemon.count(in: daemons[1].daemon.metrics.render(), route: "/v1/events", status: 200) }
        try await eventually { streams() >= 1 }
        try folders[1].atomicSave("box.yaml", Self.yaml(radius: 2))
        try await client.waitForLoaded(2)
        await client.cancel()
        for daemon in daemons.dropFirst() { await daemon.stop() }
        #expect(client.loaded.map(radius) == [1, 2])
        #expect(client.updates.compactMap(\.version?.endpoint) == [daemons[0].url, daemons[1].url])
    }

    @Test("with every endpoint down it cycles through them and backs off once per round")
    func backsOffPerRound() async throws {
        let ports = try (0..<3).map { _ in try FreePort.closed() }
        let urls = ports.map { URL(string: "http://127.0.0.1:\($0)")! }
        let recorder = DelayRecorder()
        var configuration = RemoteSpecSource.Configuration(
            connectTimeout: .milliseconds(200),
            backoff: Backoff(base: .milliseconds(100), cap: .seconds(1)) { $0 },  // the ceiling itself
            sleep: recorder.sleep)
        configuration.identity = ClientIdentity(fitting: "failover-test", instance: "1")
        let client = UpdateCollector(
            RemoteSpecSource(urls: urls, mode: .longPoll(wait: .seconds(1)), configuration: configuration))
        try await client.wait(timeout: .seconds(40)) { $0.count >= 9 }  // nine connect timeouts, slow under load
        // The third round's back-off is asked for after its last failure is reported.
        try await eventually { recorder.delays.count >= 3 }
        await client.cancel()
        let failing = client.failures.prefix(9).compactMap { ($0 as? RemoteError)?.url }
        let expected = (0..<9).map { urls[$0 % 3].absoluteString }
        #expect(failing == expected)
        #expect(Array(recorder.delays.prefix(3)) == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
    }
}
