import Foundation
import Hummingbird
import HummingbirdCore
import Livery
public import Logging
import NIOCore
public import ServiceLifecycle
import Synchronization
import UnixSignals

/// `livery serve` as a ``ServiceLifecycle/Service``: a specs folder (or a spec set in etcd)
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
    /// The bundle state and its waiting clients.
    package let hub: BundleHub
    /// The Prometheus metrics `GET /metrics` serves.
    package let metrics: ServerMetrics
    /// The clients heard from, by their `Livery-Client` header (`GET /v1/clients`).
    package let clients: ClientTable
    /// The staged rollout (`GET /v1/rollout`).
    let rollouts: RolloutKeeper
    /// Warms the fronts of ``DaemonConfiguration/warmFronts``, if any.
    private let warmer: FrontWarmer?
    /// Follows the store into the hub and the rollout keeper.
    private let follower: StoreFollower
    /// Runs the schedule (`GET /v1/schedule`).
    private let scheduler: Scheduler
    private let routes: DaemonRoutes
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
        let store = Self.store(of: configuration, logger: logger)
        let warmer =
            configuration.warmFronts.isEmpty
            ? nil : FrontWarmer(fronts: configuration.warmFronts, readToken: configuration.readToken, logger: logger)
        self.warmer = warmer
        let hub = BundleHub(metrics: metrics, logger: logger, warmer: warmer)
        self.hub = hub
        let clients = ClientTable(metrics: metrics)
        self.clients = clients
        let writer = SpecWriter(store: store, configuration: configuration, rollouts: RolloutGate())
        let rollouts = RolloutKeeper(
            hub: hub, writer: writer, clients: clients, store: store, threshold: configuration.abortWhen,
            metrics: metrics, logger: logger)
        clients.observe { rollouts.observe($0) }
        self.rollouts = rollouts
        let scheduler = Scheduler(
            hub: hub, store: store, writer: writer, rollouts: rollouts, clock: configuration.scheduleClock,
            grace: configuration.scheduleGrace, logger: logger)
        self.scheduler = scheduler
        self.follower = StoreFollower(
            store: store, loader: configuration.specLoader, hub: hub, rollouts: rollouts, scheduler: scheduler)
        self.routes = DaemonRoutes(
            hub: hub, clients: clients, writer: writer, rollouts: rollouts, scheduler: scheduler, token: token,
            metrics: metrics, configuration: configuration, logger: logger)
    }

    /// The one place the daemon chooses its store: etcd when configured, else the specs folder.
    private static func store(of configuration: DaemonConfiguration, logger: Logger) -> any SpecStore {
        if let etcd = configuration.etcd {
            return EtcdSpecStore(configuration: etcd, limits: configuration.readerLimits, logger: logger)
        }
        return FolderSpecStore(
            directory: configuration.directory, limits: configuration.readerLimits, watch: configuration.watch,
            recordFile: { [configuration] name in configuration.stateFile(ofRecord: name) }, logger: logger)
    }

    /// Every route the daemon answers, as its route table has it: for documentation, and for
    /// tests that must cover each route (a route added later is then covered too).
    package var routeTable: [DaemonRoute] {
        routes.routes.map {
            DaemonRoute(method: $0.method.rawValue, path: $0.path, writes: $0.writes, isOpen: $0.open)
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
            server: HTTPServerBuilder { [configuration, hub, clients, metrics] responder in
                DaemonHTTPChannel(
                    responder: responder, configuration: configuration, hub: hub, clients: clients, metrics: metrics,
                    tls: tls, gate: gate)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { [self] channel in self.didStartListening(channel) },
            logger: logger)
        application.beforeServerStarts { [hub] in
            await hub.waitUntilReady(timeout: .seconds(2))
        }
        // Shut down in reverse order: the follower first, which closes the hub, so waiting
        // clients are answered and event streams end; then the server, which waits for the
        // requests still in flight.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (warmer.map { [$0] } ?? []) + [application, follower, scheduler], logger: logger))
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
