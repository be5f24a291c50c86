import Foundation
import LiveryTestSupport

/// The built `livery` executable run as a child process, with its output captured.
final class Subprocess: Sendable {
    let process: ChildProcess

    /// The `livery` executable beside the test bundle (`swift build --build-tests` builds both).
    static func liveryExecutable() throws -> URL {
        let besideTests = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "livery")
        let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for candidate in [besideTests, packageRoot.appending(path: ".build/debug/livery")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw HTTPTestError(
            "no livery executable beside \(CommandLine.arguments[0]); run swift build --build-tests first")
    }

    /// Starts `livery` with `arguments` in `directory` (default: this process's); `environment`
    /// is added to this process's; `umask` (octal digits) is set for the child alone, through `sh`.
    /// With a `launcher` (such as `/usr/bin/prlimit` and its options), that program runs and execs
    /// `livery`, which keeps its process.
    init(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        umask: String? = nil, launcher: [String] = []
    ) async throws {
        var command = launcher + [try Self.liveryExecutable().path] + arguments
        if let umask { command = ["/bin/sh", "-c", "umask \(umask) && exec \"$0\" \"$@\""] + command }
        process = ChildProcess(command[0], Array(command.dropFirst()), environment: environment, in: directory)
        try await process.start()
    }

    var stdout: String { process.output }
    var stderr: String { process.errors }

    /// Waits for the process to exit and returns its status; throws if it outlives `timeout`.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        do {
            try await process.waitUntilExit(timeout: timeout)
        } catch {
            process.interrupt()
            throw HTTPTestError(
                "livery \(process.command.dropFirst()) did not exit within \(timeout); stderr: \(stderr)")
        }
        return process.terminationStatus
    }

    /// Runs `livery` to completion.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let child = try await Subprocess(arguments, environment: environment, in: directory)
        let status = try await child.exitStatus()
        return (status, child.stdout, child.stderr)
    }
}
