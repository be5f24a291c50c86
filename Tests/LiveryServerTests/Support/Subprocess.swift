import Foundation
import Synchronization

/// The built `livery` executable run as a child process, with its output captured.
final class Subprocess: Sendable {
    let process: Process
    private let output = Mutex(("", ""))

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
    /// is added to this process's. With a `launcher` (such as `/usr/bin/prlimit` and its
    /// options), that program runs and execs `livery`, which keeps its process.
    init(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        launcher: [String] = []
    ) throws {
        process = Process()
        if let program = launcher.first {
            process.executableURL = URL(filePath: program)
            process.arguments = launcher.dropFirst() + [try Self.liveryExecutable().path] + arguments
        } else {
            process.executableURL = try Self.liveryExecutable()
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.0 += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.output.withLock { $0.1 += text }
        }
        try process.run()
    }

    var stdout: String { output.withLock { $0.0 } }
    var stderr: String { output.withLock { $0.1 } }

    /// Waits for the process to exit and returns its status; throws if it outlives `timeout`.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let exited = try await TestDaemon.eventually(timeout: timeout) { !self.process.isRunning }
        guard exited else {
            process.interrupt()
            throw HTTPTestError("livery \(process.arguments ?? []) did not exit within \(timeout); stderr: \(stderr)")
        }
        // Let the pipes deliver what was written just before the exit.
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }

    /// Runs `livery` to completion.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let child = try Subprocess(arguments, environment: environment, in: directory)
        let status = try await child.exitStatus()
        return (status, child.stdout, child.stderr)
    }
}
