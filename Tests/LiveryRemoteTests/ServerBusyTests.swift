import Foundation
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// A daemon shedding held requests (503 `too-many-held-requests`, `Retry-After: 5`) is busy, not
/// failing: the source comes back when told, at most after the backoff's cap, publishes no
/// failure and does not grow its backoff.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct ServerBusyTests {
    @Test(
        "a shed wait is retried after Retry-After (at most the cap), with no failure",
        arguments: [(cap: Duration.seconds(30), expected: Duration.seconds(5)), (.seconds(2), .seconds(2))])
    func aShedWaitIsRetriedWhenTheServerSays(cap: Duration, expected: Duration) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-server-busy")
        try folder.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 1 }\n")
        // No held request at all: the first answer (no `since`) is at once, every wait is shed.
        let daemon = try await RunningDaemon.start(folder: folder) {
            $0.connectionLimits = ConnectionLimits(maxHeldRequests: 0, maxHeldRequestsPerPeer: 0)
        }
        defer { Task { await daemon.stop() } }
        let recorder = DelayRecorder()
        let configuration = RemoteSpecSource.Configuration(
            backoff: Backoff(base: .milliseconds(250), cap: cap, jitter: { $0 }), sleep: recorder.sleep)
        let collector = UpdateCollector(
            RemoteSpecSource(url: daemon.url, mode: .version(wait: .seconds(30)), configuration: configuration),
            recordingApplied: true)
        _ = try await collector.waitForLoaded(1)
        try await collector.wait { _ in recorder.delays.count >= 4 }
        await collector.cancel()
        #expect(Array(recorder.delays.prefix(4)) == Array(repeating: expected, count: 4))
        #expect(collector.failures.isEmpty, "\(collector.failures)")
        withExtendedLifetime(folder) {}
    }
}
