import Foundation
import LiveryServer
import LiveryTestSupport
import LiveryTesting
import Logging

/// A real daemon for the tests that run `livery` as a process against it: its specs folder holds
/// `box.yaml` (radius 1) and its state folder is its own; `local` holds the `box.yaml` to push
/// (radius 2) and the daemon's token as the file `token` (0600).
struct CommandTestDaemon {
    let folder: TemporarySpecFolder
    let local: TemporarySpecFolder
    /// The daemon serving until cancelled.
    let serving: Task<Void, any Error>
    /// `http://127.0.0.1:PORT`.
    let server: String
    private let state: TemporarySpecFolder

    /// With `environments`, the folder is an environments root: each of them a subfolder
    /// holding `box.yaml`. `files` (by path in the folder) are written over them before the
    /// daemon starts; `configure` sets the rest of the configuration (a schedule clock).
    init(
        prefix: String, environments: [String] = [], files: [String: String] = [:],
        configure: (inout DaemonConfiguration) -> Void = { _ in }
    ) async throws {
        folder = try TemporarySpecFolder(prefix: prefix)
        state = try TemporarySpecFolder(prefix: prefix + "-state")
        for place in environments.isEmpty ? [""] : environments.map({ $0 + "/" }) {
            try folder.write(place + "box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 1 }\n")
        }
        for (path, contents) in files { try folder.write(path, contents) }
        local = try TemporarySpecFolder(prefix: prefix + "-local")
        try local.write("box.yaml", "specs:\n  box:\n    - { type: CornerRadius, radius: 2 }\n")
        try local.write("token", "cli-token-0123456789abcdef\n")
        _ = chmod(local.url("token").path, 0o600)
        var configuration = DaemonConfiguration(directory: folder.url, port: 0)
        configuration.stateDirectory = state.url
        if !environments.isEmpty { configuration.environmentsRoot = folder.url }
        configure(&configuration)
        let logger = Logger(label: "livery.cli.test") { _ in SwiftLogNoOpLogHandler() }
        let daemon = LiveryDaemon(
            configuration: configuration, token: try BearerToken("cli-token-0123456789abcdef"), logger: logger)
        serving = GracefulServer.run(daemon, logger: logger)
        server = "http://127.0.0.1:\(try await daemon.listeningPort())"
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes.
    static func eventually(timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }
}
