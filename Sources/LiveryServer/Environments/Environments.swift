import Foundation
@_spi(LiveryInternal) import LiveryHTTP
import Logging
import ServiceLifecycle
import Synchronization

/// The daemon's environments: each a ``SpecSet`` under its name, chosen from the configuration
/// in one place (``EnvironmentSpace``). As a service it runs each set's ``StoreFollower`` and
/// ``Scheduler``, and
/// on etcd follows the environments other daemons create and delete.
final class Environments: Service, Sendable {
    /// Where the environments live.
    let space: EnvironmentSpace
    /// The environment the routes without one address (``DaemonConfiguration/defaultEnvironment``).
    let defaultName: String
    private let configuration: DaemonConfiguration
    private let metrics: ServerMetrics
    private let warmer: FrontWarmer?
    private let logger: Logger
    private let state = Mutex(State())
    /// Sets to start following, and removed sets to stop following.
    private let changes: AsyncStream<Change>
    private let changeSink: AsyncStream<Change>.Continuation

    private struct State {
        var sets: [String: Entry] = [:]
    }

    /// A set and the signal that stops its follower.
    private struct Entry {
        let set: SpecSet
        let stop: AsyncStream<Never>.Continuation
        let stopped: AsyncStream<Never>
    }

    private enum Change {
        case follow(SpecSet, stopped: AsyncStream<Never>)
    }

    /// Assembles the registry of the environments `configuration` names: one directory listing
    /// with ``DaemonConfiguration/environmentsRoot``, else no I/O.
    init(configuration: DaemonConfiguration, metrics: ServerMetrics, warmer: FrontWarmer?, logger: Logger) {
        self.configuration = configuration
        self.space = EnvironmentSpace(configuration: configuration, logger: logger)
        self.defaultName = configuration.defaultEnvironment ?? EnvironmentSpace.defaultName
        self.metrics = metrics
        self.warmer = warmer
        self.logger = logger
        (changes, changeSink) = AsyncStream.makeStream(of: Change.self)
        for name in space.initialNames(logger: logger) { add(name) }
    }

    /// The environment `name`, if the daemon has it.
    func named(_ name: some StringProtocol) -> SpecSet? {
        state.withLock { $0.sets[String(name)]?.set }
    }

    /// The environment a request for `path` (without its query) addresses, if the daemon has it.
    func addressed(byPath path: some StringProtocol) -> SpecSet? {
        guard let name = EnvironmentPath.split(path).environment else { return defaultSet }
        return named(name)
    }

    /// The default environment, if the daemon has it.
    var defaultSet: SpecSet? { named(defaultName) }

    /// Every environment, by name.
    var all: [SpecSet] {
        state.withLock { state in state.sets.keys.sorted().compactMap { state.sets[$0]?.set } }
    }

    /// The environment a request addresses: `name`, else the default one; a 404 problem naming
    /// the environments when there is no such environment.
    func resolve(_ name: (some StringProtocol)?) throws(Problem) -> SpecSet {
        if let name {
            guard let set = named(name) else {
                throw Problem(
                    kind: .unknownEnvironment,
                    detail: "there is no environment '\(name)'; the environments are \(namesText)")
            }
            return set
        }
        guard let set = defaultSet else {
            throw Problem(
                kind: .unknownEnvironment,
                detail:
                    "the default environment '\(defaultName)' does not exist; address one of \(namesText) as /v1/environments/{env}/… or start the daemon with --default-environment NAME"
            )
        }
        return set
    }

    private var namesText: String {
        let names = all.map { "'\($0.name)'" }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    /// Adds the environment `name` unless the daemon has it (another daemon's creation seen
    /// twice, or this daemon's own seen again); its follower starts at once when the service runs.
    @discardableResult
    func add(_ name: String) -> SpecSet {
        let set = SpecSet(
            name: name, store: space.store(of: name, configuration: configuration, logger: logger),
            configuration: configuration, metrics: metrics, warmer: warmer, isDefault: name == defaultName,
            logger: logger)
        let (stopped, stop) = AsyncStream.makeStream(of: Never.self)
        let added = state.withLock { state -> SpecSet? in
            guard state.sets[name] == nil else { return nil }
            state.sets[name] = Entry(set: set, stop: stop, stopped: stopped)
            return set
        }
        guard let added else { return named(name) ?? set }
        changeSink.yield(.follow(added, stopped: stopped))
        logger.info("environment added", metadata: ["livery.environment": "\(name)"])
        return added
    }

    /// Forgets the environment `name` and stops following it; its waiting clients are answered.
    func remove(_ name: String) {
        guard let entry = state.withLock({ $0.sets.removeValue(forKey: name) }) else { return }
        entry.stop.finish()
        logger.info("environment removed", metadata: ["livery.environment": "\(name)"])
    }

    /// Waits until every environment has a bundle, or `timeout` passes.
    func waitUntilReady(timeout: Duration) async {
        await withDiscardingTaskGroup { group in
            for set in all { group.addTask { await set.hub.waitUntilReady(timeout: timeout) } }
        }
    }

    /// Follows every environment's store, and on etcd the environments themselves, until
    /// graceful shutdown.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                await cancelWhenGracefulShutdown {
                    await self.space.followNames { names in self.reconcile(names) }
                }
            }
            await withGracefulShutdownHandler {
                for await change in changes {
                    guard case .follow(let set, let stopped) = change else { continue }
                    group.addTask { await Self.follow(set, until: stopped) }
                }
            } onGracefulShutdown: { [changeSink] in
                changeSink.finish()
            }
            // Graceful shutdown: the followers end by themselves, closing their hubs.
        }
    }

    /// Runs `set`'s follower (and its TUF publisher, with `--signing`) and its scheduler, and
    /// takes up the change requests a stopped daemon left half done, until graceful shutdown or
    /// until `stopped` ends (the set removed). The scheduler ending alone
    /// (graceful shutdown) leaves the follower to end by itself, closing its hub.
    private static func follow(_ set: SpecSet, until stopped: AsyncStream<Never>) async {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withDiscardingTaskGroup { services in
                    services.addTask { await set.follower.run() }
                    if let publisher = set.publisher { services.addTask { await publisher.run() } }
                }
                return true
            }
            group.addTask {
                await set.scheduler.run()
                return false
            }
            group.addTask {
                // Once the rollout and a stable version are back, as the scheduler waits for: a
                // change the last daemon stopped applying may start or complete a rollout.
                await set.hub.waitUntilReady(timeout: Scheduler.startWait)
                await set.changes.recover()
                return false
            }
            group.addTask {
                for await _ in stopped {}
                return true
            }
            while let endsTheSet = await group.next(), !endsTheSet {}
            group.cancelAll()
        }
    }

    /// Makes the environments exactly `names` (with the default one, which is always there on etcd).
    private func reconcile(_ names: Set<String>) {
        let known = Set(state.withLock { Array($0.sets.keys) })
        for name in names.subtracting(known) { add(name) }
        for name in known.subtracting(names) where name != EnvironmentSpace.defaultName { remove(name) }
    }
}
