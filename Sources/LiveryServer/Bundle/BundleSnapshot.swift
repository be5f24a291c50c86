import CompressNIO
import Foundation
import Hummingbird
import Livery

/// One published bundle: the merged spec as canonical JSON, its entity tag, and its
/// Server-Sent Events frame, encoded once and shared by every client.
public struct BundleSnapshot: Sendable {
    /// The bundle as sent without `Content-Encoding`: `spec.bundleJSON` as UTF-8.
    public let identity: BundleRepresentation
    /// The bundle gzip-compressed once, when it is published (like nginx's `gzip_static`), for
    /// the clients that accept it. `nil` only if zlib failed, and then every client gets
    /// ``identity``, which is always a correct answer.
    public let gzip: BundleRepresentation?
    /// The files the bundle was merged from, in merge order.
    public let files: [String]
    /// The spec itself, with the places its bundle no longer carries (for `GET /v1/resolved`);
    /// `nil` for a bundle wrapped from text.
    public let spec: Spec?
    /// When the watcher published it.
    public let loadedAt: Date
    /// The `id:` / `event:` / `data:` frame of this bundle.
    let eventFrame: ByteBuffer

    /// `spec.bundleJSON` as UTF-8 bytes.
    public var bytes: ByteBuffer { identity.bytes }
    /// The strong tag of ``bytes``: the bundle's version, as clients know it.
    public var etag: EntityTag { identity.etag }
    /// ``etag`` as a header shows it, quoted.
    var etagText: String { identity.etagText }

    /// Encodes `spec`'s bundle.
    public init(spec: Spec, loadedAt: Date = Date()) {
        self.init(bundleJSON: spec.bundleJSON, files: spec.files, spec: spec, loadedAt: loadedAt)
    }

    /// Wraps a bundle that is already JSON text, as `Spec.bundleJSON` makes it (or, in tests,
    /// any text a client must cope with, with no parsed spec behind it).
    package init(bundleJSON json: String, files: [String] = [], spec: Spec? = nil, loadedAt: Date = Date()) {
        self.identity = BundleRepresentation(bytes: ByteBuffer(string: json), contentEncoding: nil)
        self.gzip = Self.compressed(identity.bytes).map { BundleRepresentation(bytes: $0, contentEncoding: "gzip") }
        self.files = files
        self.spec = spec
        self.loadedAt = loadedAt
        self.eventFrame = ByteBuffer(string: EventStreamFrame(id: identity.etagText, event: "spec", data: json).text)
    }

    /// `bytes` gzip-compressed at the best level: done once per version, so the time is spent
    /// where it is paid back on every answer.
    private static func compressed(_ bytes: ByteBuffer) -> ByteBuffer? {
        var source = bytes
        do {
            return try source.compress(with: .gzip(configuration: .init(compressionLevel: .bestCompression)))
        } catch {
            return nil  // documented on `gzip`: identity is served instead
        }
    }
}
