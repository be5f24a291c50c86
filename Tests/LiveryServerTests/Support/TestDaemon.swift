import Foundation
import Livery
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging
import ServiceLifecycle

/// A real daemon on a free port, serving a fresh temporary folder, for the length of a test.
struct TestDaemon: Sendable {
    static let token = "test-token-0123456789abcdef"

    let daemon: LiveryDaemon
    let folder: TemporarySpecFolder
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }
    var http: HTTP { HTTP(base: base, token: Self.token) }

    /// A card spec and a palette it includes: the smallest folder with an include.
    static func writeExample(to folder: TemporarySpecFolder, accent: String = "#0A84FF") throws {
        try folder.write("palette.yaml", "variables:\n  colors:\n    accent: \"\(accent)\"\n")
        try folder.write(
            "card.yaml",
            "include: [palette.yaml]\nspecs:\n  card:\n    - { type: BackgroundColor, color: \"@colors.accent\" }\n    - { type: CornerRadius, radius: 8 }\n"
        )
    }

    /// Starts a daemon on `folder` (a fresh one with the example specs by default), configured
    /// further by `configure`, runs `body`, then shuts it down gracefully, even when `body` throws.
    static func with<T>(
        folder: TemporarySpecFolder? = nil,
        heartbeat: Duration = .seconds(15),
        maxBodyBytes: Int = 1024 * 1024,
        configure: (inout DaemonConfiguration) -> Void = { _ in },
        _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        // The daemon's watcher shares the process's inotify owner with tests that count its watches.
        try await TestGate.inotify.holding(exclusive: false) {
            try await run(folder: folder, heartbeat: heartbeat, maxBodyBytes: maxBodyBytes, configure: configure, body)
        }
    }

    private static func run<T>(
        folder: TemporarySpecFolder?, heartbeat: Duration, maxBodyBytes: Int,
        configure: (inout DaemonConfiguration) -> Void, _ body: (TestDaemon) async throws -> T
    ) async throws -> T {
        let folder =
            try folder
            ?? {
                let fresh = try TemporarySpecFolder(prefix: "livery-server")
                try writeExample(to: fresh)
                return fresh
            }()
        var configuration = DaemonConfiguration(
            directory: folder.url, port: 0, maxBodyBytes: maxBodyBytes, heartbeatInterval: heartbeat,
            retryHint: .milliseconds(1500))
        // The history and rollout of a test's folder stay out of the user's state folder.
        let state = try TemporarySpecFolder(prefix: "livery-state")
        configuration.stateDirectory = state.url
        configure(&configuration)
        let logger = Logger(label: "livery.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(configuration: configuration, token: try BearerToken(token), logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [daemon], logger: logger))
        let running = Task { try await group.run() }
        let result: Result<T, any Error>
        do {
            let port = try await daemon.listeningPort()
            result = .success(try await body(TestDaemon(daemon: daemon, folder: folder, port: port)))
        } catch {
            result = .failure(error)
        }
        await group.triggerGracefulShutdown()
        try await running.value
        withExtendedLifetime(state) {}
        return try result.get()
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes.
    static func eventually(
        timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }
}
