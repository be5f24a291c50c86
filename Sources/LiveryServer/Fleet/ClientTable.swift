package import Foundation
import HTTPTypes
import LiveryHTTP
import Prometheus
import Synchronization

/// The clients the daemon has heard from, by the `Livery-Client` header of their requests: who
/// they are and which version each has applied.
///
/// Anyone who can send a request can send a report, so the table is bounded in total, not per
/// client: at most ``capacity`` clients and ``skippedCapacity`` skipped identifiers over all of
/// them; past either, the least recently seen clients go (and ``FleetStatus/complete`` turns
/// false for a ``lifetime``). An entry expires ``lifetime`` after its client's last request.
/// Every operation costs O(1) amortised, and ``status(current:at:)`` reads the running counts
/// instead of copying the table.
///
/// What the table can prove: nothing about a client but what its last report claimed. One entry
/// per name and instance, replaced by each later report, so a forged report for an instance lasts
/// until that instance's next request; a forged report cannot hide a lagging instance for longer,
/// except by pushing it out of a full table, which ``FleetStatus/complete`` reveals. With a read
/// token, only the reports of requests that present it are recorded.
///
/// A header that does not parse never fails its request: it is counted (``malformedHeaders``)
/// and otherwise ignored.
package final class ClientTable: Sendable {
    /// One client as last heard from.
    public struct Entry: Sendable {
        /// The header of its last request.
        public var header: LiveryClientHeader
        /// When that request came.
        public var lastSeen: Date
        /// Whether that request was an OpenFeature (OFREP) evaluation.
        public var readsOFREP = false
    }

    struct Key: Hashable {
        var name: String
        var instance: String
    }

    /// The default of ``capacity``.
    public static let defaultCapacity = 10_000
    /// The default of ``skippedCapacity``: a few identifiers per client of a full table, the 16
    /// a header may list for a few thousand.
    public static let defaultSkippedCapacity = 20_000

    /// The most clients remembered.
    public let capacity: Int
    /// The most skipped identifiers remembered, over all clients.
    public let skippedCapacity: Int
    /// How long a client is remembered after its last request.
    public let lifetime: Duration
    private let metrics: ServerMetrics
    private let state = Mutex(ClientTableState())
    private let observers = Mutex<[@Sendable (LiveryClientHeader) -> Void]>([])

    /// Creates an empty table.
    package init(
        capacity: Int = defaultCapacity, skippedCapacity: Int = defaultSkippedCapacity,
        lifetime: Duration = .seconds(300),
        metrics: ServerMetrics
    ) {
        self.capacity = max(1, capacity)
        self.skippedCapacity = max(0, skippedCapacity)
        self.lifetime = lifetime
        self.metrics = metrics
    }

    /// Records the `Livery-Client` values of one request (none: nothing to record; several: the
    /// last one counts); `readsOFREP` for an OpenFeature (OFREP) evaluation.
    func record(_ fieldValues: [String], readsOFREP: Bool = false, at now: Date = Date()) {
        guard let value = fieldValues.last else { return }
        var header: LiveryClientHeader
        do {
            header = try LiveryClientHeader(fieldValue: value)
        } catch {
            metrics.malformedClientHeaders.increment()
            state.withLock { $0.malformed += 1 }
            return
        }
        // One client never holds more than the whole budget.
        let kept = min(header.skipped.count, skippedCapacity)
        header.moreSkipped += header.skipped.count - kept
        header.skipped.removeLast(header.skipped.count - kept)
        let key = Key(name: header.identity.name, instance: header.identity.instance)
        let entry = Entry(header: header, lastSeen: now, readsOFREP: readsOFREP)
        state.withLock { state in
            state.expire(before: cutoff(now))
            state.remove(key)
            while state.entries.count >= capacity || state.skippedTotal + entry.header.skipped.count > skippedCapacity {
                state.evictOldest(at: now)
            }
            state.insert(entry, for: key)
        }
        for observer in observers.withLock({ $0 }) { observer(header) }
    }

    /// Calls `observer` with every report the table records, outside its lock.
    func observe(_ observer: @escaping @Sendable (LiveryClientHeader) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Of the clients heard from lately, those in `rollout`'s cohort, and how many of them
    /// report the candidate applied.
    func cohort(of rollout: Rollout, at now: Date = Date()) -> (expected: Int, applied: Int) {
        let candidate = EntityTag.opaque(of: rollout.candidate)
        var expected = 0
        var applied = 0
        for entry in entries(at: now) where rollout.includes(instance: entry.header.identity.instance) {
            expected += 1
            if entry.header.applied.map({ EntityTag.opaque(of: $0) == candidate }) == true { applied += 1 }
        }
        return (expected, applied)
    }

    /// The fleet at `now` against the current version `current`, its lists cut to
    /// ``FleetStatus``'s limits; sets the fleet gauges.
    func status(current: EntityTag?, at now: Date = Date()) -> FleetStatus {
        let status = state.withLock { state in
            state.expire(before: cutoff(now))
            return FleetStatus(state, current: current, complete: !state.evictedSince(cutoff(now)))
        }
        metrics.fleetClients.set(Double(status.clients))
        metrics.fleetClientsNotConverged.set(Double(status.clients - status.converged))
        return status
    }

    /// The clients heard from within ``lifetime`` of `now`, most recently seen first: a copy of
    /// the whole table, for programs that embed the daemon (`GET /v1/clients` does not use it).
    public func entries(at now: Date = Date()) -> [Entry] {
        state.withLock { state in
            state.expire(before: cutoff(now))
            return state.newestFirst().map(\.entry)
        }
    }

    /// Headers that did not parse since the daemon started.
    public var malformedHeaders: Int { state.withLock { $0.malformed } }

    /// The places the order queue holds, live and stale: what bounds its memory.
    var placesHeld: Int { state.withLock { $0.placesHeld } }

    private func cutoff(_ now: Date) -> Date {
        let (seconds, attoseconds) = lifetime.components
        return now.addingTimeInterval(-(Double(seconds) + Double(attoseconds) / 1e18))
    }
}
