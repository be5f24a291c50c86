import Livery
import NIOCore

/// A published bundle's stylesheet (`GET /v1/css`), rendered once when the bundle is published
/// and shared by every request, in the two representations the bundle has.
package struct StyleSheetSnapshot: Sendable {
    /// The stylesheet as sent without `Content-Encoding`.
    public let identity: BundleRepresentation
    /// The stylesheet gzip-compressed once; `nil` only if zlib failed.
    public let gzip: BundleRepresentation?
    /// The trait types the bundle uses that have no CSS form (the daemon logs them).
    public let traitTypesWithoutCSS: [String]

    /// The media type of ``identity``.
    static let contentType = "text/css; charset=utf-8"

    /// Renders `spec`'s stylesheet; with no spec (a bundle that is not one, only in tests) a
    /// stylesheet that says so.
    init(spec: Spec?) {
        var text = "/* this bundle is not a spec this daemon reads: no styles */\n"
        var withoutCSS: [String] = []
        if let spec, let styleSheet = try? spec.styleSheet() {  // every theme: cannot be unknown
            text = styleSheet.text
            withoutCSS = styleSheet.traitTypesWithoutCSS
        }
        identity = BundleRepresentation(
            bytes: ByteBuffer(string: text), contentType: Self.contentType, contentEncoding: nil)
        gzip = BundleSnapshot.compressed(identity.bytes).map {
            BundleRepresentation(bytes: $0, contentType: Self.contentType, contentEncoding: "gzip")
        }
        traitTypesWithoutCSS = withoutCSS
    }
}
