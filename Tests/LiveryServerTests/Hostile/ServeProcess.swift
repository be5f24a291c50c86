import Foundation
import LiveryTestSupport
import LiveryTesting

/// A `livery serve` child process on a fresh folder of example specs, on a free loopback port,
/// with a push token file: what the hostile tests attack, from outside, as an attacker would.
final class ServeProcess: Sendable {
    static let token = "hostile-push-token-0123456789"
    static let readToken = "hostile-read-token-9876543210"

    let child: Subprocess
    let folder: TemporarySpecFolder
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }
    var http: HTTP { HTTP(base: base, token: Self.token) }

    /// Starts `livery serve` with `arguments` added; `readToken` adds `--read-token-file`;
    /// `fileLimit` runs it under `prlimit --nofile=N:N`, soft and hard, as a service with
    /// systemd's defaults but no room to raise them.
    init(_ arguments: [String] = [], readToken: Bool = false, fileLimit: Int? = nil) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-hostile")
        try TestDaemon.writeExample(to: folder)
        let secrets = try TemporarySpecFolder(prefix: "livery-hostile-secrets")
        try secrets.write("token", Self.token + "\n")
        try secrets.write("read-token", Self.readToken + "\n")
        var all = [
            "serve", folder.url.path, "--port", "0", "--token-file", secrets.url("token").path, "--log-level", "info",
        ]
        if readToken { all += ["--read-token-file", secrets.url("read-token").path] }
        let child = try await Subprocess(
            all + arguments, launcher: fileLimit.map { ["/usr/bin/prlimit", "--nofile=\($0):\($0)", "--"] } ?? [])
        let listening = try await TestDaemon.eventually(timeout: .seconds(20)) { child.stdout.contains("on http://") }
        guard listening, let port = child.stdout.firstMatch(of: /on http:\/\/127\.0\.0\.1:(\d+)/).flatMap({ Int($0.1) })
        else {
            child.process.terminate()
            throw HTTPTestError("livery serve did not start: \(child.stdout) \(child.stderr)")
        }
        self.child = child
        self.folder = folder
        self.port = port
    }

    /// The daemon's resident memory now, from `/proc/PID/status`.
    var residentBytes: Int {
        get throws {
            let status = try String(contentsOfFile: "/proc/\(child.process.processIdentifier)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            else { throw HTTPTestError("no VmRSS in /proc/\(child.process.processIdentifier)/status") }
            return kilobytes * 1024
        }
    }

    /// SIGTERM, and the exit status once it has shut down.
    func stop() async throws -> Int32 {
        child.process.terminate()
        return try await child.exitStatus()
    }

    deinit {
        if child.process.isRunning { child.process.terminate() }
    }
}
