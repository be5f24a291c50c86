import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import Synchronization
import Testing

/// The daemon down for 10 s: clients retry with exponentially growing, jittered delays (the
/// real ones, really slept), report the failures, and recover on their own once it is back.
@Suite(.timeLimit(.minutes(1)), .inotifyShared) struct OutageTests {
    /// Records each ceiling the backoff reached and the delay it drew; the delays are really slept.
    final class BackoffLog: Sendable {
        private let entries = Mutex<[(ceiling: Duration, delay: Duration)]>([])
        var ceilings: [Duration] { entries.withLock { $0.map(\.ceiling) } }
        var delays: [Duration] { entries.withLock { $0.map(\.delay) } }

        var backoff: Backoff {
            Backoff(base: .milliseconds(250), cap: .seconds(2)) { [self] ceiling in
                let delay = Backoff.uniformJitter(ceiling)
                entries.withLock { $0.append((ceiling, delay)) }
                return delay
            }
        }
    }

    private static func start(
        _ folder: TemporarySpecFolder, port: Int = 0
    ) async throws -> (LiveryDaemon, Task<Void, any Error>) {
        let configuration = DaemonConfiguration(
            directory: folder.url, port: port, heartbeatInterval: .milliseconds(300))
        let logger = Logger(label: "livery.outage.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(configuration: configuration, token: try BearerToken("outage-token"), logger: logger)
        let task = GracefulServer.run(daemon, logger: logger)
        _ = try await daemon.listeningPort()
        return (daemon, task)
    }

    @Test func clientsBackOffWhileTheDaemonIsDownAndRecoverOnTheirOwn() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-outage")
        try folder.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 1 }\n")
        let (first, firstTask) = try await Self.start(folder)
        let port = try await first.listeningPort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let logs = [BackoffLog(), BackoffLog()]
        let modes: [RemoteSpecSource.Mode] = [
            .longPoll(wait: .seconds(5)), .serverSentEvents(heartbeat: .milliseconds(300)),
        ]
        let clients = zip(modes, logs).map { mode, log in
            UpdateCollector(
                RemoteSpecSource(
                    url: url, mode: mode,
                    configuration: .init(connectTimeout: .seconds(1), backoff: log.backoff)))
        }
        for client in clients { try await client.waitForLoaded(1) }

        firstTask.cancel()
        _ = await firstTask.result  // cancellation is how it stops
        try folder.atomicSave("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 3 }\n")
        try await Task.sleep(for: .seconds(10))  // the outage itself: a fixed length by design
        let ceilingsWhileDown = logs.map(\.ceilings)
        let (_, secondTask) = try await Self.start(folder, port: port)
        let back = ContinuousClock.now
        for client in clients { try await client.waitForLoaded(2) }
        let recoveredIn = ContinuousClock.now - back
        for client in clients { await client.cancel() }
        secondTask.cancel()
        _ = await secondTask.result

        // Recovery takes at most one capped delay (2 s) plus one attempt, with room for a loaded machine.
        #expect(recoveredIn < .seconds(6), "recovered \(recoveredIn) after the daemon came back")
        for (client, ceilings) in zip(clients, ceilingsWhileDown) {
            #expect(client.loaded.map(radius) == [1, 3])
            #expect(client.failures.count >= 3, "failures: \(client.failures.count)")
            // Exponential from 250 ms, doubling, capped at 2 s.
            let expected: [Duration] =
                [.milliseconds(250), .milliseconds(500), .seconds(1)] + Array(repeating: .seconds(2), count: 20)
            #expect(ceilings.count >= 3)
            #expect(ceilings == Array(expected.prefix(ceilings.count)), "\(ceilings)")
        }
        for log in logs {
            let pairs = zip(log.delays, log.ceilings)
            #expect(pairs.allSatisfy { $0 <= $1 && $0 >= .zero }, "each delay is within its ceiling")
            #expect(Set(log.delays).count == log.delays.count, "jittered: no two delays alike")
        }
    }
}
