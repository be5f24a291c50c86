import Foundation
import Livery
import LiveryRemote
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BackoffTests {
    @Test("the ceiling doubles from the base and stops at the cap")
    func ceilings() {
        let backoff = Backoff(base: .milliseconds(250), cap: .seconds(2))
        let ceilings = (1...7).map { backoff.ceiling(afterFailures: $0) }
        #expect(ceilings == [250, 500, 1000, 2000, 2000, 2000, 2000].map { .milliseconds($0) })
        #expect(backoff.ceiling(afterFailures: 10_000) == .seconds(2))  // no overflow in a long outage
    }

    @Test("full jitter draws from 0...ceiling, and a jitter out of range is clamped")
    func jitter() {
        let backoff = Backoff(base: .milliseconds(250), cap: .seconds(1))
        let delays = (0..<200).map { _ in backoff.delay(afterFailures: 3) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(1) })
        #expect(Set(delays).count > 150)  // jittered, not the ceiling every time
        let wild = Backoff(base: .milliseconds(250), cap: .seconds(1), jitter: { $0 * 5 })
        #expect(wild.delay(afterFailures: 2) == .milliseconds(500))
    }

    @Test("unreachable: a failure per attempt with growing, capped, jittered delays; then recovery and a reset")
    func unreachableThenRecovers() async throws {
        let port = try FreePort.closed()
        let recorder = DelayRecorder()
        // The HTTP client retries a refused connection until the connect timeout: keep it short.
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .milliseconds(100),
            backoff: Backoff(base: .milliseconds(250), cap: .seconds(2), jitter: { $0 / 2 }),
            sleep: recorder.sleep
        )
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let collector = UpdateCollector(
            RemoteSpecSource(url: url, mode: .longPoll(wait: .seconds(5)), configuration: configuration))
        try await collector.wait { $0.count >= 6 }
        let expected: [Duration] = [125, 250, 500, 1000, 1000, 1000].map { .milliseconds($0) }
        #expect(Array(recorder.delays.prefix(6)) == expected)
        for failure in collector.failures.prefix(6) {
            let error = try #require(failure as? RemoteError)
            #expect(error.code == .unreachable && error.url.hasPrefix(url.absoluteString))
        }

        // The server appears on that port: the client recovers by itself.
        let store = BundleStore(bundle: bundle(radius: 1))
        let daemon = try await StandInDaemon.start(store: store, port: port)
        try await collector.waitForLoaded(1)
        let mark = recorder.delays.count
        await daemon.stop()

        // It goes away again: the backoff starts over from the base.
        try await collector.wait { _ in recorder.delays.count >= mark + 4 }
        await collector.cancel()
        // A held long-poll that the stopping daemon answers with an early 304 pauses for the base
        // (250 ms) first; the failures' delays follow, from the start again.
        let after = recorder.delays[mark...].drop { $0 == .milliseconds(250) }
        #expect(Array(after.prefix(2)) == [125, 250].map { .milliseconds($0) })
        #expect(collector.loaded.map(radius) == [1])
    }

    @Test("cancelling the consuming task stops the source promptly, even mid-backoff")
    func cancellation() async throws {
        let port = try FreePort.closed()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .milliseconds(100), backoff: Backoff(base: .seconds(30), cap: .seconds(30), jitter: { $0 }))
        let source = RemoteSpecSource(url: url, mode: .longPoll, configuration: configuration)
        let count = Mutex(0)
        let task = Task {
            for await _ in source { count.withLock { $0 += 1 } }
        }
        try await eventually { count.withLock { $0 } >= 1 }  // failed once, now waiting 30 s
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        await task.value
        #expect(clock.now - start < .seconds(1))
        #expect(count.withLock { $0 } == 1)
    }
}
