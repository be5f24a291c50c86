import Foundation
import LiveryTestSupport

/// A command running in a detached tmux session on a private server (`tmux -L <unique name>`),
/// so tests see exactly what a user's terminal shows, escapes included, without touching any
/// other tmux. The pane stays after the command exits, to read its exit status.
final class TmuxSession {
    let socket = "livery-test-\(UUID().uuidString.prefix(8))"
    private let configuration: URL

    private init(folder: URL) {
        configuration = folder.appending(path: ".tmux-\(socket).conf")
    }

    /// Starts `command` (a shell command line) in `folder` on a `width` × `height` terminal.
    static func start(_ command: String, in folder: URL, width: Int = 100, height: Int = 40) async throws -> TmuxSession
    {
        let session = TmuxSession(folder: folder)
        // remain-on-exit comes from the server's configuration, so it is on before the command runs.
        try Data("set-option -g remain-on-exit on\n".utf8).write(to: session.configuration)
        try await session.tmux([
            "-f", session.configuration.path, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-c",
            folder.path,
            command,
        ])
        return session
    }

    deinit {
        Self.killServer(socket)
        try? FileManager.default.removeItem(at: configuration)  // best effort: a leftover file harms nothing
    }

    /// The pane's content with its escapes (`capture-pane -p -e`).
    func capture() async throws -> String {
        try await tmux(["capture-pane", "-p", "-e"])
    }

    /// Types keys into the pane (tmux key names: `t`, `q`, `C-c`).
    func send(_ keys: String...) async throws {
        try await tmux(["send-keys"] + keys)
    }

    /// A tmux format for the pane, such as `#{pane_dead_status}`.
    func query(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How often the pane is read: each read runs a tmux client, and on two cores a faster loop
    /// slows the tests running beside this one (some have tight deadlines).
    static let pollInterval = Duration.milliseconds(200)

    /// Polls the pane until `condition` holds; fails with the last capture after `timeout`.
    @discardableResult
    func waitForPane(
        _ what: String, timeout: Duration = .seconds(20), until condition: (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var pane = try await capture()
        while !condition(pane) {
            guard ContinuousClock.now < deadline else {
                throw TmuxError("timed out waiting for \(what); the pane shows:\n" + Self.readable(pane))
            }
            try await Task.sleep(for: Self.pollInterval)
            pane = try await capture()
        }
        return pane
    }

    /// Waits until the pane's command has ended. (Its exit status is not read from tmux: tmux
    /// 3.3 sometimes marks a pane dead without ever recording the status, so commands that
    /// matter print theirs.)
    func waitForExit(timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await query("#{pane_dead}") != "1" {
            guard ContinuousClock.now < deadline else { throw TmuxError("timed out waiting for the command to exit") }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// A capture with its escapes made visible, for failure messages.
    static func readable(_ pane: String) -> String {
        pane.replacingOccurrences(of: "\u{1B}", with: "␛")
    }

    /// Ends the server on `socket` in the background. It may already be gone, and a test's
    /// result must not depend on it.
    private static func killServer(_ socket: String) {
        Task { _ = try? await ChildProcess.run("tmux", ["-L", socket, "kill-server"], environment: environment) }
    }

    /// Tests may run inside tmux; the servers they start are separate.
    private static let environment: [String: String?] = ["TMUX": nil]

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let tmux = try await ChildProcess.run(
            "tmux", ["-L", socket] + arguments, environment: Self.environment, streams: .merged)
        guard tmux.terminationStatus == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) failed: \(tmux.output)")
        }
        return tmux.output
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
