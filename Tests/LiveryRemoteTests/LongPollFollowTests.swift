import Foundation
import Livery
import LiveryRemote
import Testing

/// Long-poll mode against the in-test daemon: wake-up, the end of a wait, a daemon restart.
@Suite(.timeLimit(.minutes(1)))
struct LongPollFollowTests {
    private func source(_ url: URL, wait: Duration) -> RemoteSpecSource {
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(200)))
        return RemoteSpecSource(url: url, mode: .longPoll(wait: wait), configuration: configuration)
    }

    @Test("a held long-poll wakes up as soon as the bundle changes")
    func wakeUp() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(daemon.url, wait: .seconds(20)))
        try await collector.waitForLoaded(1)
        #expect(collector.updates.first?.version?.etag == store.current.etag)
        try await eventually { daemon.traffic.specRequests == 2 }  // the second long-poll is held
        try await Task.sleep(for: .milliseconds(100))

        let clock = ContinuousClock()
        let start = clock.now
        store.set(bundle(radius: 2))
        try await collector.waitForLoaded(2)
        #expect(clock.now - start < .seconds(5))  // woken, not the end of a 20 s wait
        await collector.cancel()
        await daemon.stop()
        #expect(collector.loaded.map(radius) == [1, 2])
        #expect(collector.failures.isEmpty)
    }

    @Test("a wait that ends with 304 publishes nothing and polls again")
    func notModifiedAtTheEndOfTheWait() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(daemon.url, wait: .seconds(1)))
        try await collector.waitForLoaded(1)
        try await eventually { daemon.traffic.specRequests >= 3 }  // two waits ended with 304
        #expect(collector.updates.count == 1)
        store.set(bundle(radius: 4))
        try await collector.waitForLoaded(2)
        await collector.cancel()
        await daemon.stop()
        #expect(collector.loaded.map(radius) == [1, 4])
    }

    @Test("the client rides out a daemon restart: errors while it is down, then the new bundle")
    func restart() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let first = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(first.url, wait: .seconds(20)))
        try await collector.waitForLoaded(1)
        try await Task.sleep(for: .milliseconds(200))  // a long-poll is held when the daemon goes
        await first.stop()
        try await collector.wait { !$0.compactMap(\.error).isEmpty }

        store.set(bundle(radius: 2))
        let second = try await StandInDaemon.start(store: store, port: first.port)
        try await collector.waitForLoaded(2)
        await collector.cancel()
        await second.stop()
        #expect(collector.loaded.map(radius) == [1, 2])
        for failure in collector.failures {
            #expect((failure as? RemoteError)?.code == .unreachable)
        }
    }

    @Test("a restart with the same bundle publishes nothing new")
    func restartWithSameBundle() async throws {
        let store = BundleStore(bundle: bundle(radius: 1))
        let first = try await StandInDaemon.start(store: store)
        let collector = UpdateCollector(source(first.url, wait: .seconds(20)))
        try await collector.waitForLoaded(1)
        await first.stop()
        let second = try await StandInDaemon.start(store: store, port: first.port)
        try await collector.wait { _ in second.traffic.specRequests >= 1 }
        try await Task.sleep(for: .milliseconds(200))
        await collector.cancel()
        await second.stop()
        #expect(collector.loaded.map(radius) == [1])
    }
}
