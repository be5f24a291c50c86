package import Foundation
import Livery
import LiveryHTTP
import Logging
import NIOCore
import Prometheus
import Synchronization

/// The daemon's versions: the current bundle and the last few, the errors of the store's
/// current content, whether the store is followed, the rollout the version signal carries, and
/// the waiting clients (long-polls and event streams) each new version is fanned out to.
///
/// The one place bundles are published: the ``StoreFollower`` hands it each state of the store
/// (``apply(_:source:)``), whatever the store is. A failed load is recorded and logged, and the
/// last good bundle stays current; so does a store that cannot be followed (``staleSince``).
/// On graceful shutdown the follower closes the hub, which releases every waiting client, so
/// the HTTP server can then drain its connections.
package final class BundleHub: Sendable {
    /// How many versions ``snapshot(version:)`` keeps, the current one included.
    public static let keptVersions = 16

    private struct State {
        var snapshot: BundleSnapshot?
        /// The last ``keptVersions`` bundles published, oldest first.
        var kept: [BundleSnapshot] = []
        var errors: [Diagnostic] = []
        var errorAt: Date?
        var subscribers: [Int: any BundleSubscriber] = [:]
        var nextID = 0
        var isClosed = false
        var hasFirstUpdate = false
        var storeRevision: Int64?
        var staleSince: Date?
        var staleReason: String?
        /// Loads applied, good or bad: changes whenever the store's content may have.
        var generation = 0
        /// The rollout the version signal carries (running; completed until the store publishes
        /// its candidate; aborted until the store publishes another version), and its
        /// candidate's bundle (none once aborted).
        var rollout: Rollout?
        var candidate: BundleSnapshot?

        /// `snapshot` as the version signal shows it: with the rollout, whose stable version is
        /// the bundle itself. A completed rollout leaves once its candidate is the bundle, an
        /// aborted one once another version is. An aborted rollout stays in the signal until
        /// then so that the clients' next wait is a new URL (`since` its tag), not the one they
        /// asked before the rollout, which a cache may still hold expired.
        mutating func signalled(_ snapshot: BundleSnapshot) -> BundleSnapshot {
            guard var rollout else { return snapshot.with(rollout: nil) }
            let ended =
                switch rollout.state {
                case .running: false
                case .completed: snapshot.etag.isNamed(by: rollout.candidate)
                case .aborted: !snapshot.etag.isNamed(by: rollout.stable)
                }
            if ended {
                self.rollout = nil
                candidate = nil
                return snapshot.with(rollout: nil)
            }
            rollout.stable = snapshot.etagText
            return snapshot.with(rollout: rollout)
        }
    }

    private let metrics: EnvironmentMetrics
    private let logger: Logger
    private let warmer: FrontWarming?
    private let state = Mutex(State())
    /// What must be done before the version signal names a new version (``prepareSignals(_:)``).
    private let preparation = Mutex<SignalPreparation?>(nil)

    /// Work done before the version signal names a new version: signed delivery signs the
    /// metadata that names it, and returns its files, which the signal published to fronts
    /// carries (``LiveryHTTP/VersionSignal/metadata``).
    typealias SignalPreparation = @Sendable () async -> [String: String]?

    init(metrics: EnvironmentMetrics, logger: Logger, warmer: FrontWarming?) {
        self.metrics = metrics
        self.logger = logger
        self.warmer = warmer
    }

    /// The current bundle, `nil` until the store first loads.
    public var snapshot: BundleSnapshot? { state.withLock { $0.snapshot } }

    /// The bundle of the version `tag` names (with or without quotes), if it is one of the last
    /// ``keptVersions`` published.
    public func snapshot(version tag: String) -> BundleSnapshot? {
        state.withLock { state in
            if let candidate = state.candidate, candidate.etag.isNamed(by: tag) { return candidate }
            return state.kept.last { $0.etag.isNamed(by: tag) }
        }
    }

    /// The rollout the version signal carries now, if any.
    public var rollout: Rollout? { state.withLock { $0.snapshot?.rollout ?? $0.rollout } }

    /// Puts `rollout` (with `candidate`, its candidate's bundle) in the version signal, or takes
    /// the rollout out (`nil`); wakes the waiting clients when what the signal says changed.
    func signal(_ rollout: Rollout?, candidate: BundleSnapshot?) {
        let woken = state.withLock { state -> (BundleSnapshot, BundleSnapshot, [any BundleSubscriber])? in
            state.rollout = rollout
            state.candidate = rollout == nil || rollout?.state == .aborted ? nil : candidate
            guard let current = state.snapshot else { return nil }
            let signalled = state.signalled(current)
            state.snapshot = signalled
            guard signalled.rollout != current.rollout else { return nil }
            return (signalled, current, Array(state.subscribers.values))
        }
        guard let (snapshot, previous, subscribers) = woken else { return }
        deliver(snapshot, after: previous, to: subscribers)
    }

    /// Has `preparation` done before the version signal names each new version from now on:
    /// signed delivery's signing (a write of the store's `tuf` record), so that a client the
    /// signal wakes finds the new version signed.
    func prepareSignals(_ preparation: @escaping SignalPreparation) {
        self.preparation.withLock { $0 = preparation }
    }

    /// Tells `subscribers` of `snapshot`, which follows `previous` in the version signal. With
    /// a preparation (``prepareSignals(_:)``) or fronts (``FrontWarmer``), once it is done and
    /// the fronts have its versions: the version signal's waits here, of the bundle current by
    /// that time, so that a later publish delivered meanwhile is never undone by an older one;
    /// and the waits the fronts hold on `previous`, of `snapshot` with its bundles and the
    /// prepared metadata.
    private func deliver(
        _ snapshot: BundleSnapshot, after previous: BundleSnapshot?, to subscribers: [any BundleSubscriber]
    ) {
        let preparation = preparation.withLock { $0 }
        let holdsSignal = warmer != nil || preparation != nil
        var signalWaits: [any BundleSubscriber] = []
        for subscriber in subscribers {
            if subscriber.waitsForSignal, holdsSignal {
                signalWaits.append(subscriber)
            } else {
                subscriber.deliver(snapshot)
            }
        }
        guard holdsSignal else { return }
        let candidate = snapshot.rollout.flatMap { $0.state == .running ? $0.candidate : nil }
        let versions = [snapshot.etagText] + (candidate.map { [$0] } ?? [])
        let carried = [snapshot] + (candidate.flatMap { self.snapshot(version: $0) }.map { [$0] } ?? [])
        let warmer = warmer
        Task {
            let metadata = await preparation?()
            await warmer?.warm(versions)
            let current = state.withLock { $0.snapshot } ?? snapshot
            for subscriber in signalWaits { subscriber.deliver(current) }
            if let warmer, let previous {
                await warmer.publish(
                    snapshot.versionSignal(carrying: carried, metadata: metadata), since: previous.signalChannel)
            }
        }
    }

    /// The errors of the store's current content, empty when it loads.
    public var errors: [Diagnostic] { state.withLock { $0.errors } }

    /// When the current errors were reported.
    var errorAt: Date? { state.withLock { $0.errorAt } }

    /// Clients waiting for a new bundle (long-polls and event streams).
    public var waitingClients: Int { state.withLock { $0.subscribers.count } }

    /// How many loads of the store (good or bad) the hub applied: a version number for what is
    /// derived from the store's content, such as the listing of `GET /v1/specs`.
    var generation: Int { state.withLock { $0.generation } }

    /// The etcd revision of the files the hub last saw; `nil` on a folder.
    public var storeRevision: Int64? { state.withLock { $0.storeRevision } }

    /// Since when the store cannot be followed (etcd unreachable), and why; `nil` while it can.
    /// The last good bundle is served meanwhile.
    public var staleSince: (date: Date, reason: String)? {
        state.withLock { state in state.staleSince.map { ($0, state.staleReason ?? "") } }
    }

    /// Whether the daemon should get traffic: a bundle loaded and the store followed.
    public var isReady: Bool { state.withLock { $0.snapshot != nil && $0.staleSince == nil } }

    /// The store cannot be followed, for `reason`; the last good bundle stays current.
    func markUnreachable(_ reason: String) {
        let wasReachable = state.withLock { state in
            defer {
                state.staleSince = state.staleSince ?? Date()
                state.staleReason = reason
                state.hasFirstUpdate = true
            }
            return state.staleSince == nil
        }
        if wasReachable {
            logger.error(
                "the store cannot be followed; still serving the last good bundle",
                metadata: ["livery.reason": "\(reason)"])
        }
    }

    /// The store is followed again; `revision` is the store revision of the files it holds now,
    /// where it has one.
    func markReachable(revision: Int64?) {
        let wasStale = state.withLock { state in
            defer {
                state.staleSince = nil
                state.staleReason = nil
                if let revision { state.storeRevision = revision }
            }
            return state.staleSince != nil
        }
        if wasStale { logger.notice("the store is followed again") }
    }

    /// Publishes a loaded spec or records a failure; `source` names the store in metrics.
    func apply(_ result: Result<Spec, any Error>, source: String) {
        switch result {
        case .success(let spec):
            let loaded = BundleSnapshot(spec: spec)
            let outcome = state.withLock {
                state -> (changed: Bool, BundleSnapshot, previous: BundleSnapshot?, [any BundleSubscriber]) in
                let previous = state.snapshot
                let snapshot = state.signalled(loaded)
                let changed = state.snapshot?.etag != snapshot.etag || state.snapshot?.rollout != snapshot.rollout
                state.snapshot = snapshot
                state.generation += 1
                if changed {
                    state.kept.removeAll { $0.etag == snapshot.etag }
                    state.kept.append(snapshot)
                    if state.kept.count > Self.keptVersions { state.kept.removeFirst() }
                }
                state.errors = []
                state.errorAt = nil
                state.hasFirstUpdate = true
                return (changed, snapshot, previous, Array(state.subscribers.values))
            }
            let (changed, snapshot, previous, subscribers) = outcome
            metrics.reloads.increment()
            metrics.bundleBytes.set(Double(snapshot.bytes.readableBytes))
            logger.info(
                "specs loaded",
                metadata: [
                    "livery.etag": "\(snapshot.etag)", "livery.files": "\(snapshot.files.count)",
                    "livery.changed": "\(changed)",
                ])
            if changed {
                deliver(snapshot, after: previous, to: subscribers)
                let withoutCSS = snapshot.styleSheet.traitTypesWithoutCSS
                if !withoutCSS.isEmpty {
                    logger.warning(
                        "trait types with no CSS form are not in /v1/css",
                        metadata: [
                            "livery.types": "\(withoutCSS.joined(separator: ", "))", "livery.etag": "\(snapshot.etag)",
                        ])
                }
            }
        case .failure(let error):
            let diagnostics = Diagnostic.all(of: error)
            state.withLock { state in
                state.errors = diagnostics
                state.errorAt = Date()
                state.generation += 1
                state.hasFirstUpdate = true
            }
            metrics.rejectedSpecs(source: source).increment()
            for diagnostic in diagnostics {
                logger.error(
                    "specs rejected; still serving the last good bundle",
                    metadata: ["livery.error": "\(diagnostic.compilerStyle)"])
            }
            for note in UnknownTraitNote.notes(for: diagnostics.map { ($0.code, $0.message) }, knower: "this daemon") {
                logger.notice("specs use a trait type this daemon does not know", metadata: ["livery.note": "\(note)"])
            }
        }
    }

    /// Returns once the store's first state was seen (loaded, failed or unreachable), or after
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
        logger.debug("released waiting clients", metadata: ["livery.count": "\(subscribers.count)"])
    }
}
