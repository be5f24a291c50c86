public import Foundation

/// Which response a loaded spec came from: its validators, a digest of its bytes, and the
/// endpoint that served it.
public struct RemoteVersion: Hashable, Sendable, CustomStringConvertible {
    /// The response's `ETag` (or, for server-sent events, the event's `id`), if any.
    public var etag: String?
    /// The response's `Last-Modified`, if any.
    public var lastModified: String?
    /// A digest of the body's bytes.
    public var digest: BodyDigest
    /// The endpoint (one of the source's URLs) that served it, or `nil` for the bundle read
    /// from the offline cache at start.
    public var endpoint: URL?

    /// Creates a version.
    public init(etag: String?, lastModified: String? = nil, digest: BodyDigest, endpoint: URL? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.digest = digest
        self.endpoint = endpoint
    }

    /// The ETag if there is one, else the digest.
    public var description: String { etag ?? "digest:\(digest)" }
}
