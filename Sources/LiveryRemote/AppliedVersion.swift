import Synchronization

/// What the consumer of a ``RemoteSpecSource`` has applied, which the source reports to the
/// server in its `Livery-Client` header (``LiveryClientHeader``).
///
/// The source fetches; only the consumer knows whether a spec was applied. Record each
/// successful load here (`TraitsProvider.follow(urls:…)` does), and the next request says so.
/// Shared by every copy of the source and every iteration of it. With a
/// ``RemoteSpecSource/Configuration/cacheDirectory``, recording a version is also what writes
/// its bundle to the offline cache, so the cache holds the last bundle applied.
public final class AppliedVersion: Sendable {
    private struct State {
        var etag: String?
        var skipped: [String] = []
        var keeper: AppliedBundleKeeper?
    }

    private let state = Mutex(State())

    /// Nothing applied yet.
    public init() {}

    /// The ETag of the spec applied last, or `nil` before the first (or when it had none).
    public var etag: String? { state.withLock { $0.etag } }

    /// The identifiers left on older traits by the last load.
    public var skipped: [String] { state.withLock { $0.skipped } }

    /// Records that the spec of `version` is applied, leaving `skipped` identifiers on older
    /// traits (see ``Livery/LoadReport/skippedIdentifiers``). With an offline cache, its bundle
    /// is written there now, atomically; a failure to write is published by the source.
    public func record(_ version: RemoteVersion, skipped: [String] = []) {
        let keeper = state.withLock {
            $0.etag = version.etag
            $0.skipped = skipped
            return $0.keeper
        }
        keeper?.applied(version)
    }

    /// Makes `keeper` the one that writes recorded versions to the cache, for a session's life.
    func attach(_ keeper: AppliedBundleKeeper) {
        state.withLock { $0.keeper = keeper }
    }

    /// Stops `keeper` writing, unless another session has attached its own since.
    func detach(_ keeper: AppliedBundleKeeper) {
        state.withLock { if $0.keeper === keeper { $0.keeper = nil } }
    }

    /// The header for `identity` with what is applied now.
    func header(for identity: ClientIdentity) -> LiveryClientHeader {
        let (etag, skipped) = state.withLock { ($0.etag, $0.skipped) }
        return LiveryClientHeader(identity: identity, applied: etag, skipped: skipped)
    }
}
