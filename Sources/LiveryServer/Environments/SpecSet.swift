import Foundation
import Logging

/// One environment's spec set: everything the daemon holds per set of spec files (its store,
/// bundle hub, client table, writer, rollout keeper, store follower and route caches). An
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
    /// Follows the store into the hub and the rollout keeper.
    let follower: StoreFollower
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
        let hub = BundleHub(
            metrics: metrics, logger: logger,
            warmer: warmer.map { FrontWarming(warmer: $0, environments: (isDefault ? [nil] : []) + [name]) })
        self.hub = hub
        let clients = ClientTable(metrics: metrics)
        self.clients = clients
        let writer = SpecWriter(store: store, configuration: configuration, rollouts: RolloutGate())
        self.writer = writer
        let rollouts = RolloutKeeper(
            hub: hub, writer: writer, clients: clients, store: store, threshold: configuration.abortWhen,
            metrics: metrics, logger: logger)
        clients.observe { rollouts.observe($0) }
        self.rollouts = rollouts
        self.follower = StoreFollower(store: store, loader: configuration.specLoader, hub: hub, rollouts: rollouts)
        self.changes = ChangeBook(store: store, writer: writer, rollouts: rollouts, logger: logger)
    }

    /// `logger` with the environment's name in its metadata.
    private static func logger(_ logger: Logger, name: String) -> Logger {
        var logger = logger
        logger[metadataKey: "livery.environment"] = "\(name)"
        return logger
    }
}
