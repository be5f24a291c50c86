import Foundation
import Hummingbird
import Livery

/// One published bundle: the merged spec as canonical JSON, its entity tag, and its
/// Server-Sent Events frame, encoded once and shared by every client.
public struct BundleSnapshot: Sendable {
    /// `spec.bundleJSON` as UTF-8 bytes.
    public let bytes: ByteBuffer
    /// The strong tag of ``bytes``.
    public let etag: EntityTag
    /// ``etag`` as a header shows it, quoted.
    let etagText: String
    /// The files the bundle was merged from, in merge order.
    public let files: [String]
    /// The spec itself, with the places its bundle no longer carries (for `GET /v1/resolved`).
    public let spec: Spec
    /// When the watcher published it.
    public let loadedAt: Date
    /// The `id:` / `event:` / `data:` frame of this bundle.
    let eventFrame: ByteBuffer
    /// The header fields of a `200 OK` carrying this bundle (all but `Date`).
    let bundleFields: HTTPFields
    /// The header fields of a `304 Not Modified` for a client that has this bundle.
    let notModifiedFields: HTTPFields

    /// Encodes `spec`'s bundle.
    public init(spec: Spec, loadedAt: Date = Date()) {
        let json = spec.bundleJSON
        self.bytes = ByteBuffer(string: json)
        self.etag = EntityTag(of: json.utf8)
        self.etagText = etag.description
        self.files = spec.files
        self.spec = spec
        self.loadedAt = loadedAt
        self.eventFrame = ByteBuffer(string: ServerSentEvent(id: etagText, event: "spec", data: json).text)
        var notModified = HTTPFields()
        notModified[.eTag] = etagText
        notModified[.cacheControl] = "no-cache"
        self.notModifiedFields = notModified
        var bundle = HTTPFields()
        bundle[.contentType] = "application/json"
        bundle[.eTag] = etagText
        bundle[.cacheControl] = "no-cache"
        bundle[.contentLength] = String(bytes.readableBytes)
        self.bundleFields = bundle
    }
}
