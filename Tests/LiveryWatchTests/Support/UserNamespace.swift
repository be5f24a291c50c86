import Foundation
import LiveryTestSupport

/// Re-runs a test of this binary in a child process inside a fresh user namespace
/// (`unshare -Ur`). Since Linux 5.11 the inotify limits are per user namespace
/// (`/proc/sys/user/max_inotify_watches`), so the child can lower its own limit and hit the
/// kernel's real `ENOSPC` without touching the host's `fs.inotify.max_user_watches`.
enum UserNamespace {
    static let child = NamespaceChild(variable: "LIVERY_WATCH_USERNS_CHILD")

    /// Whether this process is such a child.
    static var isChild: Bool { child.isChild }

    /// Whether user namespaces can be created here (containers often forbid it).
    static var isAvailable: Bool { get async { await probe.value } }
    private static let probe = Task { await child.probe() }

    /// Runs the test called `name` again, in the child; returns its exit status and output.
    static func runTest(named name: String) async throws -> (status: Int32, output: String) {
        try await child.runTest(named: name)
    }

    /// Sets this namespace's inotify watch limit (only in a child: it is root of its namespace).
    static func setWatchLimit(_ limit: Int) throws {
        precondition(isChild, "only a child may change its namespace's limit")
        try "\(limit)\n".write(toFile: "/proc/sys/user/max_inotify_watches", atomically: false, encoding: .utf8)
    }
}
