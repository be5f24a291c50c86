import Hummingbird
import NIOCore

/// One encoding of a published bundle's bytes, with the header fields of its answers, made
/// once when the bundle is published and shared by every request.
public struct BundleRepresentation: Sendable {
    /// The bytes sent as the body of a `200 OK`.
    public let bytes: ByteBuffer
    /// The strong tag of ``bytes``: each encoding has its own (RFC 9110 §8.8.3).
    public let etag: EntityTag
    /// ``etag`` as a header shows it, quoted.
    let etagText: String
    /// The header fields of a `200 OK` (and of a `HEAD`) carrying this representation, all but
    /// `Date`.
    let okFields: HTTPFields
    /// The header fields of a `304 Not Modified` for a client that has this representation.
    let notModifiedFields: HTTPFields
    /// The `If-None-Match` of a client that echoes ``etag``.
    let echoedCondition: EntityTagCondition

    /// Makes the representation of `bytes`, sent with `Content-Encoding: contentEncoding` when
    /// it is not `nil`.
    init(bytes: ByteBuffer, contentEncoding: String?) {
        self.bytes = bytes
        self.etag = EntityTag(of: bytes.readableBytesView)
        self.etagText = etag.description
        self.echoedCondition = .tags([.init(opaque: etag.opaque, weak: false)])
        var notModified = HTTPFields()
        notModified[.eTag] = etagText
        notModified[.cacheControl] = "no-cache"
        notModified[.vary] = "Accept-Encoding"
        self.notModifiedFields = notModified
        var ok = HTTPFields()
        ok[.contentType] = "application/json"
        if let contentEncoding { ok[.contentEncoding] = contentEncoding }
        ok[.eTag] = etagText
        ok[.cacheControl] = "no-cache"
        ok[.vary] = "Accept-Encoding"
        ok[.contentLength] = String(bytes.readableBytes)
        self.okFields = ok
    }
}
