import Foundation

/// Re-runs one test of this binary in a child process inside fresh user and mount namespaces
/// (`unshare --user --map-root-user --mount`), where it may mount a tmpfs without being root on
/// the machine. Used when mounting directly is not permitted.
enum MountNamespace {
    static let childVariable = "LIVERY_SERVER_MOUNTNS_CHILD"

    /// Whether this process is such a child.
    static var isChild: Bool { ProcessInfo.processInfo.environment[childVariable] != nil }

    /// Whether such namespaces can be created here (containers often forbid it).
    static let isAvailable: Bool = {
        do {
            return try run(["/bin/true"]).status == 0
        } catch {
            return false  // no unshare, or it cannot start: not available, which is the answer
        }
    }()

    /// Runs the test called `name` again, in the child; returns its exit status and output.
    static func runTest(named name: String) throws -> (status: Int32, output: String) {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return try run([executable, "--testing-library", "swift-testing", "--filter", name])
    }

    private static func run(_ command: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/unshare")
        process.arguments = ["--user", "--map-root-user", "--mount"] + command
        process.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()  // before waiting: a full pipe would block the child
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: bytes, as: UTF8.self))
    }
}
