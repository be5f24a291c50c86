import Foundation

/// curl, the real client operators use, run as a child process.
enum Curl {
    /// Runs `curl` with `arguments` and returns what it printed; throws if it exits non-zero.
    static func run(_ arguments: [String]) async throws -> String {
        try await String(decoding: runForData(arguments), as: UTF8.self)
    }

    /// The same, as bytes.
    static func runForData(_ arguments: [String]) async throws -> Data {
        try await ExternalCommand.runChecked(["curl", "--max-time", "10"] + arguments)
    }
}
