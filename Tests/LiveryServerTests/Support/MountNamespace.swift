import LiveryTestSupport

/// Re-runs one test of this binary in a child process inside fresh user and mount namespaces
/// (`unshare --user --map-root-user --mount`), where it may mount a tmpfs without being root on
/// the machine. Used when mounting directly is not permitted.
enum MountNamespace {
    static let child = NamespaceChild(extraNamespaces: ["--mount"], variable: "LIVERY_SERVER_MOUNTNS_CHILD")

    /// Whether this process is such a child.
    static var isChild: Bool { child.isChild }

    /// Whether such namespaces can be created here (containers often forbid it).
    static var isAvailable: Bool { get async { await probe.value } }
    private static let probe = Task { await child.probe() }

    /// Runs the test called `name` again, in the child; returns its exit status and output.
    static func runTest(named name: String) async throws -> (status: Int32, output: String) {
        try await child.runTest(named: name)
    }
}
