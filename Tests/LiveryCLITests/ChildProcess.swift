import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command to its end with `posix_spawn` and `waitpid`, output in a temporary file.
///
/// Not Foundation's `Process`: its `waitUntilExit` parks a thread of the test's (two-thread)
/// cooperative pool in a run loop, and two such waits at once never saw their tmux clients exit
/// (the zombies were never reaped). The child also starts with every signal unblocked and at its
/// default: the test process's threads block signals, and tmux, and so the demo it runs, would
/// otherwise inherit that mask and never see SIGTERM or SIGWINCH.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputFile = FileManager.default.temporaryDirectory.appending(path: "livery-child-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputFile) }  // best effort: a leftover temp file harms nothing
        let fd = open(outputFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(outputFile.path): errno \(errno)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fd, 1)
        posix_spawn_file_actions_adddup2(&actions, fd, 2)

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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: errno \(errno)") }
        }
        let output = try String(contentsOf: outputFile, encoding: .utf8)
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }
}
