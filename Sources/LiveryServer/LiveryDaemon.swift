import Foundation
import Hummingbird
import HummingbirdCore
import Livery
public import Logging
import NIOCore
public import ServiceLifecycle
import Synchronization
import UnixSignals

/// `livery serve` as a `Service`: a specs folder (or a spec set in etcd)
/// followed and served over HTTP.
///
/// Creating a daemon only assembles it (no I/O); ``run()`` starts the watcher and the HTTP
/// server in a service group and returns after a graceful shutdown, which first releases the
/// long-polls and event streams, then lets the server finish the requests in flight.
///
/// ```swift
/// let daemon = LiveryDaemon(
///     configuration: DaemonConfiguration(directory: specs, port: 0),
///     token: try BearerToken("secret"), logger: logger)
/// try await daemon.runService()  // SIGTERM or SIGINT: graceful shutdown, then return
/// ```
public final class LiveryDaemon: Service, Sendable {
    /// What the daemon was told.
    public let configuration: DaemonConfiguration
    /// The environments, each a spec set under its name.
    let environments: Environments
    /// The Prometheus metrics `GET /metrics` serves.
    package let metrics: ServerMetrics
    /// Warms the fronts of ``DaemonConfiguration/warmFronts``, if any.
    private let warmer: FrontWarmer?
    private let routes: RouteTable
    private let token: BearerToken
    private let logger: Logger
    private let listening = Mutex(ListenState())

    private struct ListenState {
        var port: Result<Int, any Error>?
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }

    /// Assembles a daemon.
    ///
    /// - Parameters:
    ///   - configuration: Folder, address and limits.
    ///   - token: The token pushes must carry.
    ///   - logger: Where the daemon logs; it makes no logger of its own.
    public convenience init(configuration: DaemonConfiguration, token: BearerToken, logger: Logger) {
        self.init(configuration: configuration, token: token, logger: logger, metrics: ServerMetrics())
    }

    /// Assembles a daemon that updates `metrics` (a benchmark's or a test's registry).
    package init(
        configuration: DaemonConfiguration, token: BearerToken, logger: Logger, metrics: ServerMetrics
    ) {
        self.configuration = configuration
        self.token = token
        self.logger = logger
        self.metrics = metrics
        let warmer =
            configuration.warmFronts.isEmpty
            ? nil : FrontWarmer(fronts: configuration.warmFronts, readToken: configuration.readToken, logger: logger)
        self.warmer = warmer
        let environments = Environments(configuration: configuration, metrics: metrics, warmer: warmer, logger: logger)
        self.environments = environments
        self.routes = RouteTable(
            DaemonRoutes.Shared(
                environments: environments, token: token, metrics: metrics, configuration: configuration,
                logger: logger))
    }

    /// The default environment, for tests and benchmarks of a daemon that has one (`livery
    /// serve DIR` always does).
    private var defaultSet: SpecSet {
        guard let set = environments.defaultSet else {
            preconditionFailure("the daemon has no default environment '\(environments.defaultName)'")
        }
        return set
    }

    /// The default environment's bundle state and waiting clients.
    package var hub: BundleHub { defaultSet.hub }
    /// The default environment's clients (`GET /v1/clients`).
    package var clients: ClientTable { defaultSet.clients }
    /// The default environment's staged rollout (`GET /v1/rollout`).
    var rollouts: RolloutKeeper { defaultSet.rollouts }
    /// The default environment's one write path.
    var writer: SpecWriter { defaultSet.writer }

    /// Every route the daemon answers, as its route table has it: for documentation, and for
    /// tests that must cover each route (a route added later is then covered too).
    package var routeTable: [DaemonRoute] {
        routes.entries.map {
            DaemonRoute(method: $0.route.method.rawValue, path: $0.path, writes: $0.route.writes, isOpen: $0.route.open)
        }
    }

    /// Runs the watcher and the server until graceful shutdown (or cancellation).
    public func run() async throws {
        let router = Router(options: .autoGenerateHeadEndpoints)
        let gate = RequestGate(
            admission: configuration.admission(pushToken: token), openRoutes: routes.register(on: router),
            budget: ConnectionBudget(limits: connectionLimits()),
            places: PlaceDisclosure(configuration: configuration, pushToken: token))
        if !configuration.isLoopback, configuration.tls == nil {
            logger.warning(
                "listening on a non-loopback address without TLS: the push token and the specs travel in clear text; use --tls-cert and --tls-key or a TLS-terminating proxy",
                metadata: ["livery.host": "\(configuration.host)"])
        }
        let tls: TLSCertificateStore?
        do {
            tls = try configuration.tls.map { try TLSCertificateStore(files: $0, logger: logger) }
        } catch {
            resolveListening(.failure(error))
            throw error
        }
        var application = Application(
            router: router,
            server: HTTPServerBuilder { [configuration, environments, metrics] responder in
                DaemonHTTPChannel(
                    responder: responder, configuration: configuration, environments: environments, metrics: metrics,
                    tls: tls, gate: gate)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { [self] channel in self.didStartListening(channel) },
            logger: logger)
        application.beforeServerStarts { [environments] in
            await environments.waitUntilReady(timeout: .seconds(2))
        }
        // Shut down in reverse order: the followers first, which close the hubs, so waiting
        // clients are answered and event streams end; then the server, which waits for the
        // requests still in flight.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (warmer.map { [$0] } ?? []) + [application, environments], logger: logger))
        do {
            try await group.run()
        } catch {
            resolveListening(.failure(error))
            throw error
        }
        resolveListening(.failure(CancellationError()))
    }

    /// Runs the daemon in its own service group that shuts down gracefully on SIGTERM and
    /// SIGINT; returns once it has.
    public func runService() async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The port the server listens on, once it does: the one configured, or the one the system
    /// chose for port 0. Throws if the daemon stops before it listens (the port is taken, say).
    public func listeningPort() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let port = listening.withLock { state -> Result<Int, any Error>? in
                if state.port == nil { state.waiters.append(continuation) }
                return state.port
            }
            if let port { continuation.resume(with: port) }
        }
    }

    /// Raises the file limit (``FileDescriptorLimit``) and returns the connection limits it
    /// leaves room for, logging both.
    private func connectionLimits() -> ConnectionLimits {
        let (files, error) = FileDescriptorLimit.raise()
        if let error {
            logger.warning(
                "cannot raise the open-file limit to its hard limit",
                metadata: ["livery.soft": "\(files.soft)", "livery.hard": "\(files.hard)", "livery.errno": "\(error)"])
        }
        let limits = configuration.connectionLimits.effective(fileLimit: files.soft)
        logger.info(
            "open-file limit",
            metadata: [
                "livery.soft": "\(files.soft)", "livery.softAtStart": "\(files.before)", "livery.hard": "\(files.hard)",
                "livery.maxConnections": "\(limits.maxConnections)",
                "livery.maxConnectionsPerPeer": "\(limits.maxConnectionsPerPeer)",
                "livery.maxHeldRequests": "\(limits.maxHeldRequests)",
                "livery.maxHeldRequestsPerPeer": "\(limits.maxHeldRequestsPerPeer)",
            ])
        if limits != configuration.connectionLimits {
            logger.notice(
                "connection limits lowered to fit the open-file limit",
                metadata: [
                    "livery.maxConnections": "\(limits.maxConnections)",
                    "livery.maxHeldRequests": "\(limits.maxHeldRequests)",
                ])
        }
        return limits
    }

    private func didStartListening(_ channel: any Channel) {
        guard let port = channel.localAddress?.port else {
            resolveListening(.failure(DaemonError("the server is listening on an address without a port")))
            return
        }
        logger.info("listening", metadata: ["livery.host": "\(configuration.host)", "livery.port": "\(port)"])
        resolveListening(.success(port))
    }

    private func resolveListening(_ result: Result<Int, any Error>) {
        let waiters = listening.withLock { state in
            guard state.port == nil else { return [CheckedContinuation<Int, any Error>]() }
            state.port = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
