/// The body of a `200` from `GET /v1/version`: the version a client without an identity should
/// apply, and the rollout, if one is in the signal.
///
/// `{"etag": "\"9f3c…\""}` with no rollout; with one,
/// `{"etag": "\"9f3c…\"", "since": "9f3c….a41f….1000", "rollout": {"id": …, "percent": 10, …}}`.
/// A client applies ``version(for:)`` and sends ``since`` back as `since=`.
///
/// The signal a daemon publishes to a front that holds the waits (`livery serve --warm-front`)
/// also carries the bundles it names (``bundles``), so that the front's clients apply the new
/// version from the one answer instead of asking the front for `/v1/spec/{etag}` next.
public struct VersionSignal: Codable, Hashable, Sendable {
    /// The stable version, as an `ETag` shows it.
    public var etag: String
    /// What to send back as `since=`: ``Rollout/signalTag`` with a rollout, else `nil` (then
    /// ``etag``).
    public var since: String?
    /// The rollout in the signal, if any.
    public var rollout: Rollout?
    /// The bundles of the versions the signal names, by their tags as an `ETag` shows them: each
    /// the very text `GET /v1/spec/{etag}` answers, so a client checks it against its tag (an
    /// ``EntityTag`` of its bytes) before using it. `nil` in a daemon's own answers, which stay
    /// small; the signal it publishes to a front carries them when they are small enough
    /// (``carriedBundleBytes``).
    public var bundles: [String: String]?
    /// With signed delivery, the metadata a client verifies those bundles with, by the names
    /// they have under `/v1/tuf/metadata/`: `timestamp.json`, the snapshot and targets it names
    /// (`N.snapshot.json`, `N.targets.json`) and the newest root (`N.root.json`), as the daemon
    /// serves them. Carried, like ``bundles``, only in the signal published to a front; a client
    /// verifies them as it verifies the files it fetches, and fetches what is not carried.
    public var metadata: [String: String]?

    /// The most bytes of bundles a published signal carries: larger ones are fetched from
    /// `/v1/spec/{etag}` as without them. Escaped in JSON, they take at most twice as many bytes,
    /// within the 1 MiB body a front takes by default (nginx's `client_max_body_size`).
    public static let carriedBundleBytes = 256 * 1024

    /// A signal for the stable version `etag` and `rollout`, carrying `bundles` and `metadata`.
    public init(
        etag: String, rollout: Rollout? = nil, bundles: [String: String]? = nil, metadata: [String: String]? = nil
    ) {
        self.etag = etag
        self.rollout = rollout
        self.since = rollout?.signalTag
        self.bundles = bundles
        self.metadata = metadata
    }

    /// The carried bundle of `version` (as an `ETag` shows it, quotes or not), if the signal
    /// carries it and its bytes are that version's.
    public func carriedBundle(of version: String) -> String? {
        let opaque = EntityTag.opaque(of: version)
        guard let (_, text) = bundles?.first(where: { EntityTag.opaque(of: $0.key) == opaque }) else { return nil }
        return EntityTag(of: text.utf8).opaque == opaque ? text : nil
    }

    /// The version `instance` should apply (``Rollout/version(for:)``, or ``etag``).
    public func version(for instance: String?) -> String {
        rollout?.version(for: instance) ?? etag
    }

    /// What to send back as `since=`.
    public var sinceTag: String { since ?? etag }
}
