import ArgumentParser
import Foundation
import LiveryServer
import Logging

/// `livery serve [DIR]`: watches a specs folder and serves the last good bundle over HTTP,
/// accepting authorised pushes. SIGTERM or SIGINT shuts it down gracefully (exit status 0).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Watch a specs folder and serve it over HTTP (bundle, long-poll, events, pushes)."
    )

    @Argument(help: "The specs folder to watch and serve.")
    var directory = "Specs"

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 7878

    @Option(help: "A file holding the push token. Without it a random token is written to \(TokenFile.defaultLocation().path).")
    var tokenFile: String?

    @Option(help: "The largest push body, in bytes.")
    var maxBodyBytes = 1024 * 1024

    @Option(help: "Seconds between heartbeats on event streams.")
    var heartbeat = 15

    @Option(help: "Seconds a connection may stay silent (no request, or half a request head) before it is closed.")
    var idleTimeout = 30

    @Flag(help: "Serve the folder but refuse every push and delete (403), even with the token.")
    var readOnly = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard heartbeat > 0 else { throw ValidationError("--heartbeat must be positive") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    }

    func run() async throws {
        var logger = Logger(label: "livery.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let token = try loadToken()
        let configuration = DaemonConfiguration(
            directory: URL(filePath: directory, directoryHint: .isDirectory),
            host: host, port: port, maxBodyBytes: maxBodyBytes, idleTimeout: .seconds(idleTimeout), readOnly: readOnly,
            heartbeatInterval: .seconds(heartbeat))
        if !configuration.isLoopback {
            // On stderr whatever the log level: this is the one setting that exposes the token.
            Self.warn(
                "livery: WARNING: listening on \(host), which is not a loopback address, without TLS: the push token "
                    + "and the specs travel in clear text. Put a TLS-terminating proxy such as nginx in front "
                    + "(README, \"Security and TLS\"), or listen on 127.0.0.1.")
        }
        let daemon = LiveryDaemon(configuration: configuration, token: token, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await daemon.runService() }
            group.addTask {
                // Printed once the port is known, so scripts (and port 0 users) can read it.
                let port = try await daemon.listeningPort()
                Self.say("livery: serving \(directory) on http://\(host):\(port)")
            }
            try await group.waitForAll()
        }
    }

    /// The token from `--token-file`, or a fresh one written where `livery push` looks for it.
    /// Only the file's location is printed, never the token.
    private func loadToken() throws -> BearerToken {
        if let tokenFile {
            let token = try TokenFile.read(URL(filePath: tokenFile))
            Self.say("livery: push token read from \(tokenFile)")
            return token
        }
        let token = BearerToken.random()
        let location = TokenFile.defaultLocation()
        try TokenFile.write(token, to: location)
        Self.say("livery: push token written to \(location.path) (mode 0600)")
        return token
    }

    /// Writes a line to standard output unbuffered: under a supervisor or a test stdout is a
    /// pipe, and the line must arrive while the daemon runs, not when it exits.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes a line to standard error, unbuffered.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
