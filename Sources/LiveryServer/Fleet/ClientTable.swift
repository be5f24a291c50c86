import Foundation
import HTTPTypes
import LiveryHTTP
import Synchronization

/// The clients the daemon has heard from, by the `Livery-Client` header of their requests: who
/// they are and which version each has applied. Bounded: an entry expires ``lifetime`` after its
/// client's last request, and past ``capacity`` entries the least recently seen one goes.
///
/// A header that does not parse never fails its request: it is counted (``malformedHeaders``)
/// and otherwise ignored.
public final class ClientTable: Sendable {
    /// One client as last heard from.
    public struct Entry: Sendable {
        /// The header of its last request.
        public var header: LiveryClientHeader
        /// When that request came.
        public var lastSeen: Date
    }

    private struct Key: Hashable {
        var name: String
        var instance: String
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var malformed = 0
    }

    /// The most clients remembered.
    public let capacity: Int
    /// How long a client is remembered after its last request.
    public let lifetime: Duration
    private let metrics: ServerMetrics
    private let state = Mutex(State())

    /// Creates an empty table.
    package init(capacity: Int = 10_000, lifetime: Duration = .seconds(300), metrics: ServerMetrics) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
        self.metrics = metrics
    }

    /// Records the `Livery-Client` values of one request (none: nothing to record; several: the
    /// last one counts).
    func record(_ fieldValues: [String], at now: Date = Date()) {
        guard let value = fieldValues.last else { return }
        let header: LiveryClientHeader
        do {
            header = try LiveryClientHeader(fieldValue: value)
        } catch {
            metrics.malformedClientHeaders.increment()
            state.withLock { $0.malformed += 1 }
            return
        }
        let key = Key(name: header.identity.name, instance: header.identity.instance)
        state.withLock { state in
            if state.entries[key] == nil, state.entries.count >= capacity {
                expire(&state, now: now)
                if state.entries.count >= capacity,
                    let oldest = state.entries.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key
                {
                    state.entries[oldest] = nil
                }
            }
            state.entries[key] = Entry(header: header, lastSeen: now)
        }
    }

    /// The clients heard from within ``lifetime`` of `now`, most recently seen first.
    public func entries(at now: Date = Date()) -> [Entry] {
        state.withLock { state in
            expire(&state, now: now)
            return state.entries.values.sorted { $0.lastSeen > $1.lastSeen }
        }
    }

    /// Headers that did not parse since the daemon started.
    public var malformedHeaders: Int { state.withLock { $0.malformed } }

    private func expire(_ state: inout State, now: Date) {
        let oldest = now.addingTimeInterval(-Double(lifetime.components.seconds))
        state.entries = state.entries.filter { $0.value.lastSeen >= oldest }
    }
}
