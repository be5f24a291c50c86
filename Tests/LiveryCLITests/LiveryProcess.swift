import Foundation
import LiveryTestSupport

/// The built `livery` executable, run as a real process with its output captured.
struct LiveryProcess {
    /// `livery` sits beside the test bundle in the build products folder.
    static var executable: URL {
        URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("livery")
    }

    /// Standard error goes with standard output, in the order printed, as a terminal shows them.
    let process: ChildProcess

    init(_ arguments: [String], in folder: URL? = nil) {
        process = ChildProcess(Self.executable.path, arguments, in: folder, streams: .merged)
    }

    /// Runs to the end; returns the exit status and everything printed.
    static func run(_ arguments: [String], in folder: URL? = nil) async throws -> (status: Int32, output: String) {
        let livery = LiveryProcess(arguments, in: folder)
        try await livery.start()
        await livery.process.waitUntilExit()
        return (livery.process.terminationStatus, livery.process.output)
    }

    func start() async throws { try await process.start() }

    /// Lines as the process prints them.
    var lines: AsyncThrowingStream<String, any Error> { process.lines }

    /// Ctrl-C; ``ChildProcess/waitUntilExit()`` waits for its end.
    func stop() { process.interrupt() }
}
