import LiveryHTTP
import NIOCore
import Synchronization

/// Response bodies made once per version of what they show (the listing of `GET /v1/specs` per
/// store version, a historic bundle per revision), so that repeated reads neither read nor hash
/// the store again; the least recently made go past ``capacity``.
///
/// Requests that miss together wait for the one body their version is being made into: after
/// a push, every polling client asks for the new version at about the same time, and each
/// making of its own would read the store on the actor where the next commit waits. A failure
/// is never kept: the requests waiting for it get it, and the next request makes the body again.
final class VersionedCache<Version: Hashable & Sendable>: Sendable {
    /// A body and its strong ETag, hashed once.
    struct Entry: Sendable {
        var body: ByteBuffer
        var etag: EntityTag
    }

    /// The making of one version's body, awaited by every request that missed it.
    private typealias Making = Task<Result<Entry, StoreError>, Never>

    /// What a request finds for its version.
    private enum Lookup {
        case kept(Entry)
        case making(Making)
    }

    private struct State {
        var entries: [Version: Entry] = [:]
        var order: [Version] = []
        var making: [Version: Making] = [:]
        /// Counts ``removeAll()``s, so that a body made from what the store said before one is
        /// not kept after it.
        var epoch = 0
    }

    /// The most versions kept.
    let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache of at most `capacity` versions.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The body of `version` with its ETag: kept, being made for another request, or made by
    /// `make` now.
    func entry(
        for version: Version, make: @escaping @Sendable () async throws(StoreError) -> ByteBuffer
    ) async throws(StoreError) -> Entry {
        let lookup = state.withLock { state -> Lookup in
            if let kept = state.entries[version] { return .kept(kept) }
            if let making = state.making[version] { return .making(making) }
            let epoch = state.epoch
            let making = Making {
                let result: Result<Entry, StoreError>
                do throws(StoreError) {
                    let body = try await make()
                    result = .success(Entry(body: body, etag: EntityTag(of: body.readableBytesView)))
                } catch {
                    result = .failure(error)
                }
                self.keep(result, for: version, epoch: epoch)
                return result
            }
            state.making[version] = making
            return .making(making)
        }
        switch lookup {
        case .kept(let entry): return entry
        case .making(let making): return try await making.value.get()
        }
    }

    /// Ends the making of `version`'s body, keeping it if it was made and nothing was forgotten
    /// since it started.
    private func keep(_ result: Result<Entry, StoreError>, for version: Version, epoch: Int) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            state.making[version] = nil
            guard case .success(let entry) = result else { return }
            if state.entries.updateValue(entry, forKey: version) == nil { state.order.append(version) }
            while state.order.count > capacity { state.entries[state.order.removeFirst()] = nil }
        }
    }

    /// Forgets every version kept or being made: what the store said of them no longer holds.
    func removeAll() {
        state.withLock { state in state = State(epoch: state.epoch + 1) }
    }
}
