import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command to its end with `posix_spawn`, output in a temporary file, and waits for
/// it with `waitpid` on a thread of its own.
///
/// Not Foundation's `Process`: its `waitUntilExit` parks a thread of the (two-thread, on this
/// machine) cooperative pool in a run loop, and two such waits at once never saw their tmux
/// clients exit (the zombies were never reaped). Waiting on a thread of its own keeps the pool
/// free for the tests running beside these, many of which have deadlines. The child starts with
/// every signal unblocked and at its default (the test process's threads block signals, and
/// tmux, and so the demo it runs, would otherwise inherit that mask and never see SIGTERM), and
/// with no file descriptor but its standard three.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `arguments` (the first is looked up in `PATH`); returns its exit status (128 + the
    /// signal if one ended it) and everything it printed.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let (pid, outputFile) = try spawn(arguments)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        // Best effort: a leftover temporary file harms nothing.
                        defer { try? FileManager.default.removeItem(at: outputFile) }
                        let status = try wait(for: pid)
                        return (status, try String(contentsOf: outputFile, encoding: .utf8))
                    })
            }.start()
        }
    }

    /// Starts `arguments` and lets it run; a thread reaps it when it ends. For clean-ups that
    /// cannot wait (a `deinit`).
    static func start(_ arguments: [String]) {
        // Nothing can be reported from where this is called; the test has already finished.
        guard let child = try? spawn(arguments) else { return }
        let (pid, outputFile) = child
        Thread {
            _ = try? wait(for: pid)  // only reaping: the status of a clean-up is of no interest
            try? FileManager.default.removeItem(at: outputFile)  // best effort, as above
        }.start()
    }

    private static func spawn(_ arguments: [String]) throws -> (pid_t, URL) {
        let outputFile = FileManager.default.temporaryDirectory.appending(path: "livery-child-\(UUID().uuidString)")
        let fd = open(outputFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(outputFile.path): errno \(errno)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fd, 1)
        posix_spawn_file_actions_adddup2(&actions, fd, 2)
        // Nothing else of the test process's: a listening socket of a test running beside this
        // one, kept open by a tmux server, would stop that test from binding its port again.
        try closeFrom(3, in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil  // tests may run inside tmux; the servers they start are separate
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        close(fd)
        guard spawned == 0 else { throw Failure(description: "cannot run \(arguments[0]): error \(spawned)") }
        return (pid, outputFile)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not import, looked up by name.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else {
            throw Failure(
                description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
        guard addCloseFrom(&actions, lowest) == 0 else { throw Failure(description: "addclosefrom failed") }
    }

    /// Blocks until `pid` ends; its exit status, or 128 + the signal that ended it.
    private static func wait(for pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exited = status & 0x7F == 0
        return exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
