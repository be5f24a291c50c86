import Foundation

/// curl, the real client operators use, run as a child process.
///
/// Waited for on a Dispatch thread: blocking one of the few cooperative threads would starve the
/// in-process daemon's router, which runs on them.
enum Curl {
    /// Runs `curl` with `arguments` and returns what it printed; throws if it exits non-zero.
    static func run(_ arguments: [String]) async throws -> String {
        try await String(decoding: runForData(arguments), as: UTF8.self)
    }

    /// The same, as bytes.
    static func runForData(_ arguments: [String]) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try runBlocking(arguments) }) }
        }
    }

    private static func runBlocking(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["curl", "--max-time", "10"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HTTPTestError("curl \(arguments) exited with \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
        return data
    }
}
