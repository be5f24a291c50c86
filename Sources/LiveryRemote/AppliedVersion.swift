import Synchronization

/// What the consumer of a ``RemoteSpecSource`` has applied, which the source reports to the
/// server in its `Livery-Client` header (``LiveryClientHeader``).
///
/// The source fetches; only the consumer knows whether a spec was applied. Record each
/// successful load here (`TraitsProvider.follow(urls:…)` does), and the next request says so.
/// Shared by every copy of the source and every iteration of it.
public final class AppliedVersion: Sendable {
    private struct State {
        var etag: String?
        var skipped: [String] = []
    }

    private let state = Mutex(State())

    /// Nothing applied yet.
    public init() {}

    /// The ETag of the spec applied last, or `nil` before the first (or when it had none).
    public var etag: String? { state.withLock { $0.etag } }

    /// The identifiers left on older traits by the last load.
    public var skipped: [String] { state.withLock { $0.skipped } }

    /// Records that the spec of `version` is applied, leaving `skipped` identifiers on older traits.
    public func record(_ version: RemoteVersion, skipped: [String] = []) {
        state.withLock {
            $0.etag = version.etag
            $0.skipped = skipped
        }
    }

    /// The header for `identity` with what is applied now.
    func header(for identity: ClientIdentity) -> LiveryClientHeader {
        let (etag, skipped) = state.withLock { ($0.etag, $0.skipped) }
        return LiveryClientHeader(identity: identity, applied: etag, skipped: skipped)
    }
}
