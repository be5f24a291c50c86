import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import Logging

/// One environment's spec set: everything the daemon holds per set of spec files (its store,
/// bundle hub, client table, writer, rollout keeper, scheduler, store follower and route caches). An
/// environment is one of these under a name (``Environments``); `livery serve DIR` has one,
/// `default`.
final class SpecSet: Sendable {
    /// The environment's name (``LiveryHTTP/EnvironmentPath/isValidName(_:)``).
    let name: String
    let store: any SpecStore
    /// The bundle state and its waiting clients.
    let hub: BundleHub
    /// The clients heard from, by their `Livery-Client` header (`GET /v1/clients`).
    let clients: ClientTable
    let writer: SpecWriter
    /// The staged rollout (`GET /v1/rollout`).
    let rollouts: RolloutKeeper
    /// Runs the environment's schedule (`GET /v1/schedule`), kept in its own store.
    let scheduler: Scheduler
    /// Follows the store into the hub, the rollout keeper and the scheduler.
    let follower: StoreFollower
    /// The environment's series of the daemon's metrics.
    let metrics: EnvironmentMetrics
    /// Signs the set's TUF metadata into its own store's `tuf` record, with `--signing`; the
    /// keys are the daemon's, shared by every environment.
    let publisher: TUFPublisher<ContinuousClock>?
    /// The environment's protection and change requests.
    let changes: ChangeBook
    /// The listing of `GET /v1/specs`, made again only when the store may have changed.
    let listings = VersionedCache<DaemonRoutes.ListingVersion>(capacity: DaemonRoutes.cachedListings)
    /// The bundles of `GET /v1/history/{revision}`, which never change.
    let historicBundles = VersionedCache<Int64>(capacity: DaemonRoutes.cachedRevisions)

    /// Assembles the set of `store` (no I/O); `warmer` warms the fronts with its versions, by
    /// the routes of the environment and, for the default environment, the routes without one.
    init(
        name: String, store: any SpecStore, configuration: DaemonConfiguration, metrics: ServerMetrics,
        warmer: FrontWarmer?, isDefault: Bool, logger: Logger
    ) {
        self.name = name
        self.store = store
        let logger = Self.logger(logger, name: name)
        let metrics = EnvironmentMetrics(environment: name, server: metrics)
        self.metrics = metrics
        let hub = BundleHub(
            metrics: metrics, logger: logger,
            warmer: warmer.map { FrontWarming(warmer: $0, environments: (isDefault ? [nil] : []) + [name]) })
        self.hub = hub
        let clients = ClientTable(metrics: metrics)
        self.clients = clients
        let repository = configuration.signing.map { signing in
            TUFRepository(
                folder: signing.folder, roles: signing.roles, hub: hub, store: store, now: signing.now, logger: logger)
        }
        let writer = SpecWriter(
            store: store, configuration: configuration, rollouts: RolloutGate(),
            offlineTargets: configuration.signing?.offlineTargets == true ? repository : nil)
        self.writer = writer
        let rollouts = RolloutKeeper(
            hub: hub, writer: writer, clients: clients, store: store, threshold: configuration.abortWhen,
            metrics: metrics, logger: logger)
        clients.observe { rollouts.observe($0) }
        self.rollouts = rollouts
        let publisher = repository.map { repository in
            TUFPublisher(
                repository: repository, hub: hub, clock: ContinuousClock(),
                checkInterval: configuration.signing?.checkInterval ?? .seconds(60))
        }
        self.publisher = publisher
        let scheduler = Scheduler(
            hub: hub, store: store, writer: writer, rollouts: rollouts, clock: configuration.scheduleClock,
            grace: configuration.scheduleGrace, logger: logger)
        self.scheduler = scheduler
        self.follower = StoreFollower(
            store: store, loader: configuration.specLoader, hub: hub, rollouts: rollouts,
            signing: publisher?.repository, scheduler: scheduler)
        self.changes = ChangeBook(
            store: store, writer: writer, rollouts: rollouts, scheduler: scheduler, logger: logger)
    }

    /// The set's TUF repository (`/v1/tuf/…`), with `--signing`.
    var signing: TUFRepository? { publisher?.repository }

    /// `logger` with the environment's name in its metadata.
    private static func logger(_ logger: Logger, name: String) -> Logger {
        var logger = logger
        logger[metadataKey: "livery.environment"] = "\(name)"
        return logger
    }
}
