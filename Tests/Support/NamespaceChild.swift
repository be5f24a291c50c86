import Foundation

/// Re-runs one test of the current test binary in a child process inside fresh Linux
/// namespaces (`unshare --user --map-root-user …`), where it is root of its own namespace: it
/// may lower its inotify limits or mount a tmpfs without touching the machine. The child sees
/// `variable` set in its environment, so the test knows which side it is on.
public struct NamespaceChild: Sendable {
    /// `unshare`'s namespace options beyond the user namespace, e.g. `["--mount"]`.
    public let extraNamespaces: [String]
    /// The environment variable that marks the child.
    public let variable: String

    public init(extraNamespaces: [String] = [], variable: String) {
        self.extraNamespaces = extraNamespaces
        self.variable = variable
    }

    /// Whether this process is such a child.
    public var isChild: Bool { ProcessInfo.processInfo.environment[variable] != nil }

    /// Whether such namespaces can be created here (containers often forbid it).
    public func probe() async -> Bool {
        if isChild { return true }
        do {
            return try await run(["/bin/true"]).status == 0
        } catch {
            return false  // no unshare, or it cannot start: not available, which is the answer
        }
    }

    /// Runs the test called `name` again, in the child; returns its exit status and output.
    public func runTest(named name: String) async throws -> (status: Int32, output: String) {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return try await run([executable, "--testing-library", "swift-testing", "--filter", name])
    }

    private func run(_ command: [String]) async throws -> (status: Int32, output: String) {
        let unshare = try await ChildProcess.run(
            "/usr/bin/unshare", ["--user", "--map-root-user"] + extraNamespaces + command,
            environment: [variable: "1"], streams: .merged)
        return (unshare.terminationStatus, unshare.output)
    }
}
