import Foundation

/// What a ``ClientTable`` holds under its lock: the entries, the order they were last seen in,
/// and running counts by applied version and by skipped identifier, so that neither expiry nor
/// `GET /v1/clients` walks the whole table.
///
/// The order is a queue of (key, stamp) pairs, oldest first. A later report of a client appends
/// a new pair and leaves the old one behind, stale (its stamp no longer the entry's); stale pairs
/// are skipped where they are met and dropped in one pass once they outnumber the live ones, so
/// each report costs O(1) amortised.
struct ClientTableState {
    struct Slot {
        var entry: ClientTable.Entry
        var stamp: Int
    }

    private struct Place {
        var key: ClientTable.Key
        var stamp: Int
    }

    private(set) var entries: [ClientTable.Key: Slot] = [:]
    private var order: [Place] = []
    private var head = 0
    private var nextStamp = 0
    /// Clients by the version they applied (`nil`: none yet).
    private(set) var byApplied: [String?: Int] = [:]
    /// Clients by identifier they skipped.
    private(set) var bySkipped: [String: Int] = [:]
    /// Skipped identifiers held, over all entries.
    private(set) var skippedTotal = 0
    var malformed = 0
    /// The entries whose last request was an OpenFeature (OFREP) evaluation.
    private(set) var ofrepReaders = 0
    /// Clients dropped to make room since the daemon started.
    private(set) var evicted = 0
    private var lastEviction: Date?

    /// The places queued, live and stale.
    var placesHeld: Int { order.count }

    /// Records `entry` as the newest; `key` must not be in the table.
    mutating func insert(_ entry: ClientTable.Entry, for key: ClientTable.Key) {
        nextStamp += 1
        entries[key] = Slot(entry: entry, stamp: nextStamp)
        order.append(Place(key: key, stamp: nextStamp))
        count(entry.header, by: 1)
        if entry.readsOFREP { ofrepReaders += 1 }
        if order.count > 2 * entries.count + 64 { compact() }
    }

    /// Forgets `key`'s entry, if any.
    mutating func remove(_ key: ClientTable.Key) {
        guard let slot = entries.removeValue(forKey: key) else { return }
        count(slot.entry.header, by: -1)
        if slot.entry.readsOFREP { ofrepReaders -= 1 }
    }

    /// Forgets the entries last seen before `cutoff`, oldest first.
    mutating func expire(before cutoff: Date) {
        while let (key, slot) = oldest(), slot.entry.lastSeen < cutoff {
            remove(key)
        }
    }

    /// Forgets the least recently seen entry to make room.
    mutating func evictOldest(at now: Date) {
        guard let (key, _) = oldest() else { return }
        remove(key)
        evicted += 1
        lastEviction = now
    }

    /// Whether an entry was dropped to make room at or after `date`.
    func evictedSince(_ date: Date) -> Bool {
        lastEviction.map { $0 >= date } ?? false
    }

    /// The live entries, most recently seen first, read lazily.
    func newestFirst() -> some Sequence<Slot> {
        order[head...].reversed().lazy.compactMap { place in
            entries[place.key].flatMap { $0.stamp == place.stamp ? $0 : nil }
        }
    }

    /// The least recently seen live entry; stale places before it are dropped.
    private mutating func oldest() -> (ClientTable.Key, Slot)? {
        while head < order.count {
            let place = order[head]
            if let slot = entries[place.key], slot.stamp == place.stamp { return (place.key, slot) }
            head += 1
        }
        return nil
    }

    private mutating func compact() {
        order = order[head...].filter { entries[$0.key]?.stamp == $0.stamp }
        head = 0
    }

    private mutating func count(_ header: LiveryClientHeader, by change: Int) {
        byApplied[header.applied, default: 0] += change
        if byApplied[header.applied] == 0 { byApplied[header.applied] = nil }
        for identifier in Set(header.skipped) {
            bySkipped[identifier, default: 0] += change
            if bySkipped[identifier] == 0 { bySkipped[identifier] = nil }
        }
        skippedTotal += change * header.skipped.count
    }
}
