import Foundation

/// A command run to its end, waited for on a Dispatch thread: blocking one of the few
/// cooperative threads would stall the in-process daemons of the tests running beside it.
enum ExternalCommand {
    /// Runs `arguments` (looked up on `PATH`) and returns its standard output and exit status.
    static func run(_ arguments: [String]) async throws -> (output: Data, errors: Data, status: Int32) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        let process = Process()
                        process.executableURL = URL(filePath: "/usr/bin/env")
                        process.arguments = arguments
                        let output = Pipe()
                        let errors = Pipe()
                        process.standardOutput = output
                        process.standardError = errors
                        try process.run()
                        let data = output.fileHandleForReading.readDataToEndOfFile()
                        let message = errors.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        return (data, message, process.terminationStatus)
                    })
            }
        }
    }

    /// The same, throwing when the command exits with a non-zero status.
    static func runChecked(_ arguments: [String]) async throws -> Data {
        let (output, errors, status) = try await run(arguments)
        guard status == 0 else {
            throw HTTPTestError(
                "\(arguments.joined(separator: " ")) exited with \(status): \(String(decoding: errors, as: UTF8.self))")
        }
        return output
    }
}
