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

    @OptionGroup var options: DaemonOptions

    @OptionGroup var includes: IncludeOptions

    @Option(help: "The largest push body, in bytes.")
    var maxBodyBytes = 1024 * 1024

    @Option(help: "Seconds between heartbeats on event streams.")
    var heartbeat = 15

    @Option(help: "Seconds a connection may stay silent (no request, or half a request head) before it is closed.")
    var idleTimeout = 30

    @Option(help: "Seconds a request's body may take to arrive whole after its head; slower ones get 408.")
    var requestTimeout = 30

    @Flag(help: "Serve the folder but refuse every push and delete (403), even with the token.")
    var readOnly = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard heartbeat > 0 else { throw ValidationError("--heartbeat must be positive") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be positive") }
        guard requestTimeout > 0 else { throw ValidationError("--request-timeout must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    }

    func run() async throws {
        var logger = Logger(label: "livery.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let token = try options.loadToken(say: Self.say)
        var configuration = DaemonConfiguration(
            directory: URL(filePath: directory, directoryHint: .isDirectory),
            host: options.host, port: options.port, maxBodyBytes: maxBodyBytes, idleTimeout: .seconds(idleTimeout),
            requestTimeout: .seconds(requestTimeout), readOnly: readOnly, heartbeatInterval: .seconds(heartbeat))
        configuration.allowedIncludes = try includes.allowList()
        configuration.includeFetcher = includes.fetcher(limits: configuration.readerLimits)
        configuration.tls = options.tls
        options.warnIfExposed(configuration)
        let daemon = LiveryDaemon(configuration: configuration, token: token, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await daemon.runService() }
            group.addTask {
                // Printed once the port is known, so scripts (and port 0 users) can read it.
                let port = try await daemon.listeningPort()
                Self.say("livery: serving \(directory) on \(options.scheme)://\(options.host):\(port)")
            }
            try await group.waitForAll()
        }
    }

    /// Writes a line to standard output unbuffered: under a supervisor or a test stdout is a
    /// pipe, and the line must arrive while the daemon runs, not when it exits.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
