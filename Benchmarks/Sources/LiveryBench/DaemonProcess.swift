import Foundation
import LiveryServer
import LiveryTestSupport

/// `livery serve DIR --port 0` as a child process: the real executable, built beside this one
/// (`swift build --product livery`), so its memory is the daemon's alone.
final class DaemonProcess {
    let port: Int
    let pid: Int32
    private let process: ChildProcess

    /// Starts the daemon, with `extra` arguments (`directory` a folder of environments with
    /// `environments`), and waits for the line that says which port it listens on.
    init(directory: URL, tokenFile: URL, environments: Bool = false, arguments extra: [String] = []) throws {
        let executable = try Self.liveryExecutable()
        // Figure 9's baseline holds 5,000 long-polls, all from 127.0.0.1 (as through a proxy):
        // above the default budgets (4,096 held requests, 128 per address), which would answer
        // the rest 503 and measure the retries instead of the daemon.
        let limits = ConnectionLimits(
            maxConnections: 16_384, maxConnectionsPerPeer: 16_384, maxHeldRequests: 12_288,
            maxHeldRequestsPerPeer: 12_288)
        let process = ChildProcess(
            executable.path,
            ["serve"] + (environments ? ["--environments"] : []) + [
                directory.path, "--port", "0", "--token-file", tokenFile.path, "--log-level", "warning",
                "--max-connections", "\(limits.maxConnections)",
                "--max-connections-per-peer", "\(limits.maxConnectionsPerPeer)",
                "--max-held-requests", "\(limits.maxHeldRequests)",
                "--max-held-requests-per-peer", "\(limits.maxHeldRequestsPerPeer)",
                // A rollout's state beside the bench's folder, not in the user's own state folder.
                "--state-dir", directory.deletingLastPathComponent().appendingPathComponent("state").path,
            ] + extra)
        // "livery: serving DIR on http://127.0.0.1:PORT", printed once the port is known.
        let port = try Blocking.run {
            try await process.start()
            for try await line in process.lines where line.contains(" on http://") {
                if let colon = line.lastIndex(of: ":"),
                    let port = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                {
                    return port
                }
            }
            throw BenchError("\(executable.path) exited before listening: \(process.errors)")
        }
        self.process = process
        self.pid = process.processIdentifier
        self.port = port
    }

    /// The daemon's resident set (`VmRSS` of /proc/PID/status), in bytes.
    func residentBytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { throw BenchError("no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    /// SIGTERM (graceful shutdown), then waits for the exit.
    func stop() {
        process.terminate()
        process.waitUntilExitBlocking()
    }

    /// `livery` in the folder of this executable: both are products of the root package.
    static func liveryExecutable() throws -> URL {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let livery = me.deletingLastPathComponent().appendingPathComponent("livery")
        guard FileManager.default.isExecutableFile(atPath: livery.path) else {
            throw BenchError(
                "no livery executable beside \(me.path): build it with the same configuration (swift build --product livery)"
            )
        }
        return livery
    }
}
