/// Which response a loaded spec came from: its validators and a digest of its bytes.
public struct RemoteVersion: Hashable, Sendable, CustomStringConvertible {
    /// The response's `ETag` (or, for server-sent events, the event's `id`), if any.
    public var etag: String?
    /// The response's `Last-Modified`, if any.
    public var lastModified: String?
    /// A digest of the body's bytes.
    public var digest: BodyDigest

    /// Creates a version.
    public init(etag: String?, lastModified: String? = nil, digest: BodyDigest) {
        self.etag = etag
        self.lastModified = lastModified
        self.digest = digest
    }

    /// The ETag if there is one, else the digest.
    public var description: String { etag ?? "digest:\(digest)" }
}
