import Foundation
import Livery
import LiveryRemote
import Testing

/// Server-sent events mode against the in-test daemon: delivery, resume, restart, silence.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamFollowTests {
    private func source(_ url: URL, heartbeat: Duration = .seconds(2)) -> RemoteSpecSource {
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(200)))
        return RemoteSpecSource(url: url, mode: .serverSentEvents(heartbeat: heartbeat), configuration: configuration)
    }

    @Test("each new bundle arrives as an event whose id is its ETag; a repeat is not re-published")
    func delivery() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(daemon.url))
        try await collector.waitForLoaded(1)
        #expect(collector.updates.first?.version?.etag == store.current.etag)
        store.set(bundle(radius: 2))
        try await collector.waitForLoaded(2)
        store.set(bundle(radius: 2))
        store.set(bundle(radius: 3))
        try await collector.waitForLoaded(3)
        await collector.cancel()
        await daemon.stop()
        #expect(collector.loaded.map(radius) == [1, 2, 3])
        #expect(daemon.traffic.eventConnections == 1)
        #expect(collector.failures.isEmpty)
    }

    @Test("after a restart the client resumes with Last-Event-ID and gets the bundle changed meanwhile")
    func resumeAfterRestart() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let first = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(first.url))
        try await collector.waitForLoaded(1)
        let firstETag = store.current.etag
        await first.stop()
        store.set(bundle(radius: 2))  // changed while the daemon is down
        let second = try await StandInDaemon.start(store: store, port: first.port)
        try await collector.waitForLoaded(2)
        #expect(second.traffic.lastEventIDs.first == firstETag)
        store.set(bundle(radius: 3))  // and the new stream carries on
        try await collector.waitForLoaded(3)
        await collector.cancel()
        await second.stop()
        #expect(collector.loaded.map(radius) == [1, 2, 3])
    }

    @Test("resuming with the current ETag sends nothing again")
    func resumeWithoutChange() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let first = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(first.url))
        try await collector.waitForLoaded(1)
        await first.stop()
        let second = try await StandInDaemon.start(store: store, port: first.port)
        try await collector.wait { _ in second.traffic.eventConnections >= 1 }
        try await Task.sleep(for: .milliseconds(300))
        await collector.cancel()
        await second.stop()
        #expect(second.traffic.lastEventIDs == [store.current.etag])
        #expect(collector.loaded.map(radius) == [1])
    }

    @Test("a silence of three heartbeats is a dead connection: the client reconnects")
    func silence() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store, heartbeat: nil)
        let collector = UpdateCollector(source(daemon.url, heartbeat: .milliseconds(150)))
        try await collector.waitForLoaded(1)
        try await collector.wait { !$0.compactMap(\.error).isEmpty }
        try await collector.wait { _ in daemon.traffic.eventConnections >= 2 }
        await collector.cancel()
        await daemon.stop()
        let error = try #require(collector.failures.first as? RemoteError)
        #expect(error.code == .timedOut)
        #expect(collector.loaded.map(radius) == [1])
    }

    @Test("heartbeats keep a quiet connection alive")
    func heartbeats() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store, heartbeat: .milliseconds(100))
        let collector = UpdateCollector(source(daemon.url, heartbeat: .milliseconds(300)))
        try await collector.waitForLoaded(1)
        try await Task.sleep(for: .milliseconds(1500))  // a read timeout is 900 ms: heartbeats beat it
        await collector.cancel()
        await daemon.stop()
        #expect(collector.failures.isEmpty)
        #expect(daemon.traffic.eventConnections == 1)
    }
}
