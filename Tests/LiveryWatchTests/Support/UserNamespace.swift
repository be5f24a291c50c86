import Foundation

/// Re-runs a test of this binary in a child process inside a fresh user namespace
/// (`unshare -Ur`). Since Linux 5.11 the inotify limits are per user namespace
/// (`/proc/sys/user/max_inotify_watches`), so the child can lower its own limit and hit the
/// kernel's real `ENOSPC` without touching the host's `fs.inotify.max_user_watches`.
enum UserNamespace {
    static let childVariable = "LIVERY_WATCH_USERNS_CHILD"

    /// Whether this process is such a child.
    static var isChild: Bool { ProcessInfo.processInfo.environment[childVariable] != nil }

    /// Whether user namespaces can be created here (containers often forbid it).
    static let isAvailable: Bool = {
        if isChild { return true }
        return (try? run(["/bin/true"]).status) == 0
    }()

    /// Runs the test called `name` again, in the child; returns its exit status and output.
    static func runTest(named name: String) throws -> (status: Int32, output: String) {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return try run([executable, "--testing-library", "swift-testing", "--filter", name])
    }

    /// Sets this namespace's inotify watch limit (only in a child: it is root of its namespace).
    static func setWatchLimit(_ limit: Int) throws {
        precondition(isChild, "only a child may change its namespace's limit")
        try "\(limit)\n".write(toFile: "/proc/sys/user/max_inotify_watches", atomically: false, encoding: .utf8)
    }

    private static func run(_ command: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/unshare")
        process.arguments = ["--user", "--map-root-user"] + command
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
