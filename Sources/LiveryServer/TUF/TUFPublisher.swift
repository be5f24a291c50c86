import ServiceLifecycle

/// Runs the ``TUFRepository`` until graceful shutdown: signs metadata for every version the
/// hub publishes (a permanent subscriber of the hub, told of each new bundle and rollout) and
/// checks at every `checkInterval` of `clock` whether the timestamp is due.
final class TUFPublisher<SleepClock: Clock<Duration>>: Service, Sendable {
    let repository: TUFRepository
    private let hub: BundleHub
    private let clock: SleepClock
    private let checkInterval: Duration

    init(repository: TUFRepository, hub: BundleHub, clock: SleepClock, checkInterval: Duration) {
        self.repository = repository
        self.hub = hub
        self.clock = clock
        self.checkInterval = checkInterval
    }

    func run() async {
        let (published, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard let (subscriber, _) = hub.subscribe({ id in PublishSignal(id: id, continuation: continuation) }) else {
            return
        }
        defer { hub.unsubscribe(subscriber.id) }
        await repository.restore()
        continuation.yield()
        await cancelWhenGracefulShutdown { [repository, clock, checkInterval] in
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in published { await repository.publishCurrent() }
                }
                group.addTask {
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
        continuation.finish()
    }
}

/// The hub's news for the ``TUFPublisher``: a new version (or rollout) to sign; coalesced, as
/// only the current one is signed.
private struct PublishSignal: BundleSubscriber {
    let id: Int
    let continuation: AsyncStream<Void>.Continuation
    func deliver(_ snapshot: BundleSnapshot) { continuation.yield() }
    func close() { continuation.finish() }
}
