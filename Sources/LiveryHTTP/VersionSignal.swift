/// The body of a `200` from `GET /v1/version`: the version a client without an identity should
/// apply, and the rollout, if one is in the signal.
///
/// `{"etag": "\"9f3c…\""}` with no rollout; with one,
/// `{"etag": "\"9f3c…\"", "since": "9f3c….a41f….1000", "rollout": {"id": …, "percent": 10, …}}`.
/// A client applies ``version(for:)`` and sends ``since`` back as `since=`.
public struct VersionSignal: Codable, Hashable, Sendable {
    /// The stable version, as an `ETag` shows it.
    public var etag: String
    /// What to send back as `since=`: ``Rollout/signalTag`` with a rollout, else `nil` (then
    /// ``etag``).
    public var since: String?
    /// The rollout in the signal, if any.
    public var rollout: Rollout?

    /// A signal for the stable version `etag` and `rollout`.
    public init(etag: String, rollout: Rollout? = nil) {
        self.etag = etag
        self.rollout = rollout
        self.since = rollout?.signalTag
    }

    /// The version `instance` should apply (``Rollout/version(for:)``, or ``etag``).
    public func version(for instance: String?) -> String {
        rollout?.version(for: instance) ?? etag
    }

    /// What to send back as `since=`.
    public var sinceTag: String { since ?? etag }
}
