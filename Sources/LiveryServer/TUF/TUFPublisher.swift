import ServiceLifecycle

/// Runs the ``TUFRepository`` until graceful shutdown: signs metadata for every version the
/// hub publishes before the version signal names it (the hub's preparation,
/// ``BundleHub/prepareSignals(_:)``, told of each new bundle and rollout), and checks at every
/// `checkInterval` of `clock` whether the timestamp is due.
final class TUFPublisher<SleepClock: Clock<Duration>>: Service, Sendable {
    let repository: TUFRepository
    private let clock: SleepClock
    private let checkInterval: Duration

    init(repository: TUFRepository, hub: BundleHub, clock: SleepClock, checkInterval: Duration) {
        self.repository = repository
        self.clock = clock
        self.checkInterval = checkInterval
        hub.prepareSignals { await repository.prepareSignal() }
    }

    func run() async {
        await repository.restore()
        // A version the hub published before the record was read is signed now.
        await repository.publishCurrent()
        await cancelWhenGracefulShutdown { [repository, clock, checkInterval] in
            while true {
                do {
                    try await clock.sleep(for: checkInterval)
                } catch {
                    return
                }
                await repository.refreshIfDue()
            }
        }
    }
}
