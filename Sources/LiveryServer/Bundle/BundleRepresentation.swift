import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP
package import NIOCore

/// One encoding of a published bundle's bytes, with the header fields of its answers, made
/// once when the bundle is published and shared by every request (a class, so that handing it
/// to each request is one reference, not a copy of every field).
package final class BundleRepresentation: Sendable {
    /// The bytes sent as the body of a `200 OK`.
    public let bytes: ByteBuffer
    /// The strong tag of ``bytes``: each encoding has its own (RFC 9110 §8.8.3).
    public let etag: EntityTag
    /// ``etag`` as a header shows it, quoted.
    let etagText: String
    /// ``etagText`` as UTF-8, for comparing with the bytes a client sent.
    let etagBytes: [UInt8]
    /// The `200 OK` carrying this representation.
    let ok: BundleResponse
    /// The answer to a `HEAD` for it: ``ok``'s status and fields, no body.
    let okToHead: BundleResponse
    /// The `304 Not Modified` for a client that has this representation.
    let notModified: BundleResponse
    /// The `If-None-Match` of a client that echoes ``etag``.
    let echoedCondition: EntityTagCondition

    /// Makes the representation of `bytes` (of `contentType`), sent with `Content-Encoding:
    /// contentEncoding` when it is not `nil`, and its answers (with their heads as bytes, for the
    /// raw path), once.
    init(bytes: ByteBuffer, contentType: String = "application/json", contentEncoding: String?) {
        self.bytes = bytes
        self.etag = EntityTag(of: bytes.readableBytesView)
        self.etagText = etag.description
        self.etagBytes = Array(etagText.utf8)
        self.echoedCondition = .tags([.init(opaque: etag.opaque, weak: false)])
        var notModified = HTTPFields()
        notModified[.eTag] = etagText
        notModified[.cacheControl] = "no-cache"
        notModified[.vary] = "Accept-Encoding"
        self.notModified = BundleResponse(prebuilt: .notModified, fields: notModified, body: nil)
        var ok = HTTPFields()
        ok[.contentType] = contentType
        if let contentEncoding { ok[.contentEncoding] = contentEncoding }
        ok[.eTag] = etagText
        ok[.cacheControl] = "no-cache"
        ok[.vary] = "Accept-Encoding"
        ok[.contentLength] = String(bytes.readableBytes)
        let okAnswer = BundleResponse(prebuilt: .ok, fields: ok, body: bytes)
        self.ok = okAnswer
        self.okToHead = BundleResponse(status: .ok, fields: ok, body: nil, head: okAnswer.head)
    }
}
