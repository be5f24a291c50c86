import ArgumentParser
import AsyncHTTPClient
import CDispatch
import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import LiveryServer
import LiveryTUF
import Logging

/// `livery serve [DIR]` or `livery serve --etcd URL[,URL...]`: follows a specs folder (or a spec
/// set in etcd, shared by several daemons) and serves the last good bundle over HTTP, accepting
/// authorised pushes. SIGTERM or SIGINT shuts it down gracefully (exit status 0).
struct ServeCommand: RegistryCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Watch a specs folder (or etcd) and serve it over HTTP (bundle, long-poll, events, pushes)."
    )

    @Argument(help: "The specs folder to watch and serve (default: Specs; not with --etcd).")
    var directory: String?

    @Option(help: "Keep the specs in etcd instead of a folder: the members' client URLs, comma-separated.")
    var etcd: String?

    @Option(
        help: ArgumentHelp(
            "Serve each subfolder of ROOT named [a-z][a-z0-9-]{0,62} as the environment of that name (at /v1/environments/NAME/…), instead of one specs folder as the environment 'default'.",
            valueName: "root"))
    var environments: String?

    @Option(
        help: ArgumentHelp(
            "The environment the routes without one (/v1/spec, /v1/specs…) address (default: 'default').",
            valueName: "name"))
    var defaultEnvironment: String?

    @Option(help: "The etcd key prefix; each spec file is the key PREFIX/specs/<path>.")
    var etcdPrefix = "/livery/"

    @Option(
        help:
            "How many publishes the history keeps (a folder's in --state-dir, else etcd's); each publish removes the oldest beyond it."
    )
    var historyLimit = 1000

    @Option(
        help:
            "With --etcd: seconds the watch may receive nothing before it is made again; etcd counts as unreachable when the new one is not confirmed in as long."
    )
    var etcdWatchSilence = 10

    @OptionGroup var etcdSecurity: EtcdSecurityOptions

    @OptionGroup var options: DaemonOptions

    @OptionGroup var includes: IncludeOptions

    @OptionGroup(title: "Hostile clients") var access: AccessOptions

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Let web pages from this origin (scheme://host[:port], or *) read the stylesheet, the browser client and the version signal (repeatable). Writes never answer another origin. No CORS without it.",
            valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(
        name: .customLong("warm-front"),
        help: ArgumentHelp(
            "A caching front of this daemon (deploy/nginx/livery.conf), by the base URL its clients use (repeatable): each new version's bundle is asked through it, then the new version signal is published to the waits it holds (at most 500 ms for both), so the fleet behind it hears of it at once and finds it cached.",
            valueName: "url"))
    var warmFront: [String] = []

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

    @Flag(
        help:
            "Start even if the specs folder does not exist yet (a mount that comes later) and serve it once it appears; without it a missing folder is an error."
    )
    var waitForFolder = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(
        help:
            "Abort a rollout by itself once this many clients of its cohort (3) or this share of them (5%) refused the candidate or reported a problem."
    )
    var abortWhen = "1"

    @Option(
        help:
            "Where the daemon keeps the running rollout and the history of a specs folder (default: $XDG_STATE_HOME/livery or ~/.local/state/livery)."
    )
    var stateDir: String?

    @Option(
        help:
            "Serve the specs as a TUF repository at /v1/tuf/, signed with the online keys of this folder (made by livery signing init)."
    )
    var signing: String?

    @Option(help: "Seconds a signed timestamp is valid with --signing; the daemon re-signs it at half of it.")
    var timestampExpiry = 86_400

    @Flag(
        help:
            "With --signing: hold no targets key (the folder must not have targets.key); every write brings its targets signed (livery push --sign-with KEY)."
    )
    var offlineTargets = false

    @Option(
        help:
            "How late a scheduled step may still run when every daemon was down at its time (90s, 30m, 1h); later it is marked missed and never runs."
    )
    var scheduleGrace = "1h"

    func validate() throws {
        guard ScheduleTime.interval(parsing: scheduleGrace) != nil else {
            throw ValidationError(
                "--schedule-grace '\(scheduleGrace)' is not a whole number of s, m, h or d, such as 1h")
        }
        guard AbortThreshold(parsing: abortWhen) != nil else {
            throw ValidationError("--abort-when '\(abortWhen)' is neither a count of 1 or more (3) nor a share (5%)")
        }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard timestampExpiry >= 2 else { throw ValidationError("--timestamp-expiry must be at least 2 seconds") }
        if offlineTargets, signing == nil {
            throw ValidationError(
                "--offline-targets keeps the targets key of --signing DIR offline; give --signing DIR")
        }
        guard heartbeat > 0 else { throw ValidationError("--heartbeat must be positive") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be positive") }
        guard requestTimeout > 0 else { throw ValidationError("--request-timeout must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown --log-level '\(logLevel)'")
        }
        if etcd != nil, directory != nil { throw ValidationError("give either a specs folder or --etcd, not both") }
        if environments != nil, directory != nil || etcd != nil {
            throw ValidationError("give one of a specs folder, --environments ROOT or --etcd")
        }
        if let defaultEnvironment, !EnvironmentPath.isValidName(defaultEnvironment) {
            throw ValidationError(
                "--default-environment '\(defaultEnvironment)' is not an environment name ([a-z][a-z0-9-]{0,62})")
        }
        _ = try allowedOrigins()
        _ = try warmFronts()
        let endpoints = try etcdEndpoints()
        if etcdSecurity.given, etcd == nil {
            throw ValidationError(
                "--etcd-cacert, --etcd-cert, --etcd-key, --etcd-user and --etcd-password-file need --etcd")
        }
        if etcdSecurity.etcdCacert != nil || etcdSecurity.etcdCert != nil,
            let plain = endpoints.first(where: { $0.scheme != "https" })
        {
            throw ValidationError(
                "--etcd: '\(plain.absoluteString)' is plain http; the etcd TLS files need https:// endpoints")
        }
        guard etcdWatchSilence > 0 else {
            throw ValidationError("--etcd-watch-silence \(etcdWatchSilence) must be at least 1 second")
        }
        guard historyLimit > 0 else {
            throw ValidationError("--history-limit \(historyLimit) must be at least 1")
        }
        guard etcdPrefix.hasPrefix("/") else {
            throw ValidationError("--etcd-prefix '\(etcdPrefix)' must start with '/'")
        }
        if etcd != nil, waitForFolder { throw ValidationError("--wait-for-folder is for a specs folder, not --etcd") }
        if etcd == nil, !waitForFolder { try Self.checkFolder(environments ?? directory ?? "Specs") }
    }

    /// A folder missing when the daemon starts is almost always a typo: said at once, rather
    /// than served as nothing (a folder that goes away later is waited for, as the watcher does).
    static func checkFolder(_ folder: String) throws {
        var info = stat()
        guard stat(folder, &info) == 0 else {
            if errno == ENOENT {
                throw ValidationError(
                    "the specs folder '\(folder)' does not exist; create it, or give --wait-for-folder to serve it once it appears"
                )
            }
            throw ValidationError("cannot use the specs folder '\(folder)': \(FileSystemError.reason(errno: errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw ValidationError("'\(folder)' is not a folder") }
    }

    /// The `--etcd` URLs, each checked; empty without the option.
    func etcdEndpoints() throws -> [URL] {
        guard let etcd else { return [] }
        return try etcd.split(separator: ",").map { text in
            let text = text.trimmingCharacters(in: .whitespaces)
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil,
                url.path.isEmpty || url.path == "/"
            else {
                throw ValidationError("--etcd: '\(text)' is not a client URL such as http://127.0.0.1:2379")
            }
            return URL(string: text.hasSuffix("/") ? String(text.dropLast()) : text) ?? url
        }
    }

    /// The `--warm-front` URLs, each checked.
    func warmFronts() throws -> [URL] {
        try warmFront.map { text in
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil,
                url.query == nil
            else {
                throw ValidationError("--warm-front: '\(text)' is not a base URL such as http://127.0.0.1:8080")
            }
            return url
        }
    }

    /// The `--allow-origin` values; a bad one is a usage error naming it.
    func allowedOrigins() throws -> CrossOriginPolicy {
        do {
            return try CrossOriginPolicy(allowing: allowOrigin)
        } catch {
            throw ValidationError("--allow-origin: \(error)")
        }
    }

    func run(registry: TraitRegistry) async throws {
        var logger = Logger(label: "livery.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let token = try options.loadToken(say: Self.say)
        let directory = self.directory ?? "Specs"
        var configuration = DaemonConfiguration(
            directory: URL(filePath: directory, directoryHint: .isDirectory),
            host: options.host, port: options.port, maxBodyBytes: maxBodyBytes, idleTimeout: .seconds(idleTimeout),
            requestTimeout: .seconds(requestTimeout), readOnly: readOnly, heartbeatInterval: .seconds(heartbeat),
            studio: options.studio)
        configuration.registry = registry
        configuration.allowedIncludes = try includes.allowList()
        configuration.allowedOrigins = try allowedOrigins()
        configuration.warmFronts = try warmFronts()
        configuration.includeFetcher = includes.fetcher(limits: configuration.readerLimits)
        configuration.tls = options.tls
        configuration.abortWhen = AbortThreshold(parsing: abortWhen) ?? .first
        configuration.scheduleGrace = .seconds(ScheduleTime.interval(parsing: scheduleGrace) ?? 3600)
        configuration.stateDirectory = stateDir.map { URL(filePath: $0, directoryHint: .isDirectory) }
        configuration.historyLimit = historyLimit
        configuration.environmentsRoot = environments.map { URL(filePath: $0, directoryHint: .isDirectory) }
        configuration.defaultEnvironment = defaultEnvironment
        configuration.signing = try signing.map { folder in
            try DaemonSigning(
                folder: SigningFolder(url: URL(filePath: folder, directoryHint: .isDirectory)),
                timestampLifetime: TimeInterval(timestampExpiry), offlineTargets: offlineTargets)
        }
        try access.apply(to: &configuration)
        options.warnIfExposed(configuration)
        let endpoints = try etcdEndpoints()
        let http = endpoints.isEmpty ? nil : try etcdSecurity.httpClient()
        if let http {
            var store = EtcdStoreConfiguration(
                endpoints: endpoints, prefix: etcdPrefix, http: http, watchSilenceLimit: .seconds(etcdWatchSilence),
                historyLimit: historyLimit)
            try etcdSecurity.authenticate(&store)
            configuration.etcd = store
        }
        let served =
            http == nil
            ? environments.map { "the environments in \($0)" } ?? directory
            : "etcd \(endpoints.map(\.absoluteString).joined(separator: ",")) \(configuration.etcd?.prefix ?? "")"
        let daemon = LiveryDaemon(configuration: configuration, token: token, logger: logger)
        let servesStudio = configuration.servesStudio
        let outcome: Result<Void, any Error>
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await daemon.runService() }
                group.addTask {
                    // Printed once the port is known, so scripts (and port 0 users) can read it.
                    let port = try await daemon.listeningPort()
                    Self.say("livery: serving \(served) on \(options.scheme)://\(options.host):\(port)")
                    if servesStudio {
                        Self.say("livery: Livery Studio at \(options.scheme)://\(options.host):\(port)/studio/")
                    }
                }
                try await group.waitForAll()
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await http?.shutdown()
        try outcome.get()
    }

    /// Writes a line to standard output unbuffered: under a supervisor or a test stdout is a
    /// pipe, and the line must arrive while the daemon runs, not when it exits.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
