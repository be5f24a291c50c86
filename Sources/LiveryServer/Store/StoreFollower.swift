import Livery
import ServiceLifecycle

/// Follows the daemon's store (``SpecStore/follow(loading:into:)``) until graceful shutdown,
/// whatever the store is: each state of the spec files goes to the ``BundleHub``, its remote
/// includes fetched here so that the network never holds up the watcher, and each state that
/// loaded goes back to the store to be recorded (``SpecStore/recordLoaded()``); whether the store can
/// be followed goes to the hub; the rollout's record and reports go to the ``RolloutKeeper``,
/// the signed delivery's record to the ``TUFRepository``; a change of the schedule wakes the
/// ``Scheduler``.
/// Then it closes the hub, which releases every waiting client.
final class StoreFollower: Service, Sendable {
    private let store: any SpecStore
    private let loader: SpecFolderLoader
    private let hub: BundleHub
    private let rollouts: RolloutKeeper
    private let signing: TUFRepository?
    private let scheduler: Scheduler

    init(
        store: any SpecStore, loader: SpecFolderLoader, hub: BundleHub, rollouts: RolloutKeeper,
        signing: TUFRepository?, scheduler: Scheduler
    ) {
        self.store = store
        self.loader = loader
        self.hub = hub
        self.rollouts = rollouts
        self.signing = signing
        self.scheduler = scheduler
    }

    /// Puts back the rollout the store keeps, then follows the store until graceful shutdown.
    func run() async {
        await rollouts.restore()
        await cancelWhenGracefulShutdown { [self] in
            await store.follow(loading: loader) { event in await self.handle(event) }
        }
        hub.close()
    }

    private func handle(_ event: StoreEvent) async {
        switch event {
        case .specs(let stage, let revision):
            hub.markReachable(revision: revision)
            let spec: Result<Spec, any Error>
            do {
                spec = .success(try await loader.complete(stage.get()))
            } catch {
                spec = .failure(error)
            }
            hub.apply(spec, source: store.changeSource)
            if case .success = spec { await store.recordLoaded() }
        case .reachable:
            hub.markReachable(revision: nil)
        case .unreachable(let reason):
            hub.markUnreachable(reason)
        case .record(let record) where record.name == ScheduleStore.recordName:
            scheduler.scheduleChanged()
        case .record(let record):
            await rollouts.adopt(record)
            await signing?.adopt(record)
        case .report(let record, let data):
            rollouts.count(report: data, onRecord: record)
        }
    }
}
