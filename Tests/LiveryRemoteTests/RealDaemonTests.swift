import Foundation
import Livery
import LiveryRemote
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import Testing

/// The client against the real `livery serve` (``LiveryServer/LiveryDaemon``) on a loopback
/// port, serving a temporary specs folder watched with inotify.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct RealDaemonTests {
    private static let configuration = RemoteSpecSource.Configuration(
        connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)))

    private static func yaml(radius: Int) -> String {
        "specs:\n  box:\n    - { type: CornerRadius, radius: \(radius) }\n"
    }

    @Test("long-poll and server-sent events both deliver each edit of the folder, with the daemon's ETag")
    func bothModesSeeEdits() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-remote")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let running = try await RunningDaemon.start(folder: folder)
        let longPoll = UpdateCollector(
            RemoteSpecSource(
                url: running.url, mode: .longPoll(wait: .seconds(5)), configuration: Self.configuration))
        let events = UpdateCollector(
            RemoteSpecSource(
                url: running.url, mode: .serverSentEvents(heartbeat: .milliseconds(300)),
                configuration: Self.configuration))
        try await longPoll.waitForLoaded(1)
        try await events.waitForLoaded(1)

        try folder.atomicSave("box.yaml", Self.yaml(radius: 2))
        try await longPoll.waitForLoaded(2)
        try await events.waitForLoaded(2)
        try folder.atomicSave("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: }\n")  // rejected
        try await Task.sleep(for: .milliseconds(800))  // several heartbeats: the stream stays healthy

        await longPoll.cancel()
        await events.cancel()
        await running.stop()
        #expect(longPoll.loaded.map(radius) == [1, 2])
        #expect(events.loaded.map(radius) == [1, 2])
        #expect(longPoll.updates.map(\.version?.etag) == events.updates.map(\.version?.etag))
        #expect(longPoll.failures.isEmpty && events.failures.isEmpty)
    }

    @Test("an event stream rides out a daemon restart on the same port and gets the edit made meanwhile")
    func restart() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-remote")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let first = try await RunningDaemon.start(folder: folder)
        let events = UpdateCollector(
            RemoteSpecSource(
                url: first.url, mode: .serverSentEvents(heartbeat: .milliseconds(300)),
                configuration: Self.configuration))
        try await events.waitForLoaded(1)
        await first.stop()
        try folder.atomicSave("box.yaml", Self.yaml(radius: 3))
        let second = try await RunningDaemon.start(folder: folder, port: first.port)
        try await events.waitForLoaded(2)
        await events.cancel()
        await second.stop()
        #expect(events.loaded.map(radius) == [1, 3])
    }

    @Test("the default version mode follows the real daemon, which sees the client converge") @MainActor
    func versionModeConverges() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-remote")
        try folder.write("box.yaml", Self.yaml(radius: 1))
        let running = try await RunningDaemon.start(folder: folder)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let configuration = RemoteSpecSource.Configuration(
            connectTimeout: .seconds(2), backoff: Backoff(base: .milliseconds(50), cap: .milliseconds(300)),
            identity: ClientIdentity(fitting: "real-test", instance: "v-1", appVersion: "1.0"))
        let task = Task {
            await provider.follow(url: running.url, mode: .version(wait: .seconds(2)), configuration: configuration)
        }
        try await eventually { box.cornerRadius == 1 }
        try folder.atomicSave("box.yaml", Self.yaml(radius: 5))
        try await eventually { box.cornerRadius == 5 }
        let current = try #require(running.daemon.hub.snapshot?.etag)
        try await eventually {
            running.daemon.clients.entries().contains { $0.header.applied.map(current.isNamed(by:)) == true }
        }
        task.cancel()
        await task.value
        await running.stop()
        #expect(RemoteSpecSource.Mode.version(wait: .seconds(30)) == RemoteSpecSource(url: running.url).mode)
    }

    @Test("provider.follow on the main actor styles a target from the real daemon") @MainActor
    func follow() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-remote")
        try folder.write("box.yaml", Self.yaml(radius: 4))
        let running = try await RunningDaemon.start(folder: folder)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let task = Task { await provider.follow(url: running.url, configuration: Self.configuration) }
        try await eventually { box.cornerRadius == 4 }
        try folder.atomicSave("box.yaml", Self.yaml(radius: 6))
        try await eventually { box.cornerRadius == 6 }
        task.cancel()
        await task.value
        await running.stop()
    }
}
