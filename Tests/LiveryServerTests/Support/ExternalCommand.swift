import Foundation
import LiveryTestSupport

/// A command run to its end.
enum ExternalCommand {
    /// Runs `arguments` (looked up on `PATH`) and returns its standard output and exit status.
    static func run(_ arguments: [String]) async throws -> (output: Data, errors: Data, status: Int32) {
        let child = try await ChildProcess.run(arguments[0], Array(arguments.dropFirst()))
        return (Data(child.outputBytes), Data(child.errorBytes), child.terminationStatus)
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
