import Foundation
import Livery
import LiveryWatch
import Logging
import ServiceLifecycle
import Synchronization

/// Follows the specs folder through a ``LiveryWatch/FolderWatcher`` and fans every new bundle out
/// to the waiting clients (long-polls and event streams).
///
/// The one path by which bundles are published: edits on disk and pushes (which only write
/// files) both arrive here through the watcher. A failed load is recorded and logged, and the
/// last good bundle stays current. On graceful shutdown the hub releases every waiting client,
/// so the HTTP server can then drain its connections.
public final class BundleHub: Service, Sendable {
    private struct State {
        var snapshot: BundleSnapshot?
        var errors: [Diagnostic] = []
        var errorAt: Date?
        var subscribers: [Int: any BundleSubscriber] = [:]
        var nextID = 0
        var isClosed = false
        var hasFirstUpdate = false
    }

    private let directory: URL
    private let watchConfiguration: WatchConfiguration
    private let loader: SpecFolderLoader
    private let metrics: ServerMetrics
    private let logger: Logger
    private let state = Mutex(State())

    init(configuration: DaemonConfiguration, metrics: ServerMetrics, logger: Logger) {
        self.directory = configuration.directory
        self.watchConfiguration = configuration.watch
        self.loader = configuration.specLoader
        self.metrics = metrics
        self.logger = logger
    }

    /// The current bundle, `nil` until the folder first loads.
    public var snapshot: BundleSnapshot? { state.withLock { $0.snapshot } }

    /// The errors of the folder's current content on disk, empty when it loads.
    public var errors: [Diagnostic] { state.withLock { $0.errors } }

    /// When the current errors were reported.
    var errorAt: Date? { state.withLock { $0.errorAt } }

    /// Clients waiting for a new bundle (long-polls and event streams).
    public var waitingClients: Int { state.withLock { $0.subscribers.count } }

    /// Watches the folder until graceful shutdown, then releases every waiting client.
    ///
    /// The watcher only reads the folder; remote includes are fetched here, in this task, so the
    /// network never holds up the watcher (let alone the thread that owns inotify). Bundles
    /// inline them: clients never fetch a remote include themselves.
    public func run() async {
        let watcher = FolderWatcher(
            directory: directory, loader: loader, configuration: watchConfiguration, logger: logger)
        for await update in watcher.cancelOnGracefulShutdown() {
            apply(await update.completed(by: loader))
        }
        close()
        await watcher.stop()
    }

    private func apply(_ update: Update<Spec>) {
        switch update {
        case .loaded(let spec, _):
            let snapshot = BundleSnapshot(spec: spec)
            metrics.reloads.increment()
            metrics.bundleBytes.set(Double(snapshot.bytes.readableBytes))
            let (changed, subscribers) = state.withLock { state in
                let changed = state.snapshot?.etag != snapshot.etag
                state.snapshot = snapshot
                state.errors = []
                state.errorAt = nil
                state.hasFirstUpdate = true
                return (changed, Array(state.subscribers.values))
            }
            logger.info("specs loaded", metadata: ["etag": "\(snapshot.etag)", "files": "\(snapshot.files.count)", "changed": "\(changed)"])
            if changed {
                for subscriber in subscribers { subscriber.deliver(snapshot) }
            }
        case .failed(let error):
            let diagnostics = Diagnostic.all(of: error)
            metrics.rejectedSpecs(source: "disk").increment()
            state.withLock { state in
                state.errors = diagnostics
                state.errorAt = Date()
                state.hasFirstUpdate = true
            }
            for diagnostic in diagnostics {
                logger.error("specs rejected; still serving the last good bundle", metadata: ["error": "\(diagnostic.compilerStyle)"])
            }
        }
    }

    /// Returns once the watcher reported the folder's first state (loaded or failed), or after
    /// `timeout`, so the server does not answer 503 to requests that come in at once.
    func waitUntilReady(timeout: Duration) async {
        // Polled: it runs once, at start-up, for a few milliseconds.
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ $0.hasFirstUpdate || $0.isClosed }), ContinuousClock.now < deadline {
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return
            }
        }
    }

    /// Registers a waiting client and returns it with the current bundle, read in the same
    /// instant so that no publish falls between the two. `nil` once the hub is closed.
    func subscribe() -> (Subscription, BundleSnapshot?)? {
        subscribe { id in Subscription(id: id) { [weak self] id in self?.unsubscribe(id) } }
    }

    /// Registers the waiting client `make` builds from its id, and returns it with the current
    /// bundle, read in the same instant. `nil` once the hub is closed. The client leaves with
    /// ``unsubscribe(_:)``.
    func subscribe<Subscriber: BundleSubscriber>(_ make: (_ id: Int) -> Subscriber) -> (Subscriber, BundleSnapshot?)? {
        let result = state.withLock { state -> (Subscriber, BundleSnapshot?, Int)? in
            guard !state.isClosed else { return nil }
            let id = state.nextID
            state.nextID += 1
            let subscriber = make(id)
            state.subscribers[id] = subscriber
            return (subscriber, state.snapshot, state.subscribers.count)
        }
        guard let result else { return nil }
        metrics.waitingClients.set(Double(result.2))
        return (result.0, result.1)
    }

    /// Removes the waiting client `id`, if it is still there.
    func unsubscribe(_ id: Int) {
        let count = state.withLock { state in
            state.subscribers[id] = nil
            return state.subscribers.count
        }
        metrics.waitingClients.set(Double(count))
    }

    /// Whether the hub stopped taking waiting clients (graceful shutdown).
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Releases every waiting client and refuses new ones.
    func close() {
        let subscribers = state.withLock { state in
            state.isClosed = true
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.close() }
        logger.debug("released waiting clients", metadata: ["count": "\(subscribers.count)"])
    }
}
