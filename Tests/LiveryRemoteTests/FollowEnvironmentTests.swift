import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Testing

/// `provider.follow(url:environment:)`: a program follows one environment of a daemon of
/// several, in every mode, and never applies another environment's version.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct FollowEnvironmentTests {
    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    /// A daemon serving the environments of `root`.
    nonisolated private static func serve(_ root: TemporarySpecFolder) async throws -> RunningDaemon {
        try await RunningDaemon.start(folder: root) { $0.environmentsRoot = root.url }
    }

    @Test(
        "a follower of staging gets staging's pushes and none of production's",
        arguments: [
            RemoteSpecSource.Mode.version(wait: .seconds(5)), .longPoll(wait: .seconds(5)),
            .serverSentEvents(heartbeat: .seconds(15)),
        ])
    @MainActor
    func followsItsEnvironment(mode: RemoteSpecSource.Mode) async throws {
        let root = try TemporarySpecFolder(prefix: "livery-follow-environments")
        try root.write("production/box.yaml", Self.yaml(radius: 1))
        try root.write("staging/box.yaml", Self.yaml(radius: 2))
        let daemon = try await Self.serve(root)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let configuration = RemoteSpecSource.Configuration(
            backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(200)))
        let task = Task {
            await provider.follow(url: daemon.url, environment: "staging", mode: mode, configuration: configuration)
        }
        try await eventually { box.cornerRadius == 2 }
        try root.atomicSave("production/box.yaml", Self.yaml(radius: 5))
        try root.atomicSave("staging/box.yaml", Self.yaml(radius: 3))
        try await eventually { box.cornerRadius == 3 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(box.cornerRadius == 3, "a push to production reached a follower of staging")
        task.cancel()
        await task.value
        await daemon.stop()
    }
}
