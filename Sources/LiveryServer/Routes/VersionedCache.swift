import LiveryHTTP
import NIOCore
import Synchronization

/// Response bodies made once per version of what they show (the listing of `GET /v1/specs` per
/// store version, a historic bundle per revision), so that repeated reads neither read nor hash
/// the store again; the least recently made go past ``capacity``.
///
/// Two requests that miss together both make the body; the second one made is kept. A failure
/// is never kept.
final class VersionedCache<Version: Hashable & Sendable>: Sendable {
    /// A body and its strong ETag, hashed once.
    struct Entry: Sendable {
        var body: ByteBuffer
        var etag: EntityTag
    }

    private struct State {
        var entries: [Version: Entry] = [:]
        var order: [Version] = []
    }

    /// The most versions kept.
    let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache of at most `capacity` versions.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The body of `version` with its ETag, made by `make` unless kept.
    func entry<Failure: Error>(
        for version: Version, make: () async throws(Failure) -> ByteBuffer
    ) async throws(Failure) -> Entry {
        if let kept = state.withLock({ $0.entries[version] }) { return kept }
        let body = try await make()
        let entry = Entry(body: body, etag: EntityTag(of: body.readableBytesView))
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: version) == nil { state.order.append(version) }
            while state.order.count > capacity { state.entries[state.order.removeFirst()] = nil }
        }
        return entry
    }

    /// Forgets every version kept: what the store said of them no longer holds.
    func removeAll() {
        state.withLock { $0 = State() }
    }
}
