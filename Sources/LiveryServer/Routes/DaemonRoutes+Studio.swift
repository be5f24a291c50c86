import Foundation
import Hummingbird
import Livery

extension DaemonRoutes {
    /// Livery Studio at `/studio/` when the configuration serves it (see
    /// ``DaemonConfiguration/servesStudio``), and `GET /v1/resolved`, the read-only view of the
    /// current spec the page draws from.
    static func studioRoutes(_ configuration: DaemonConfiguration) -> [Route] {
        let resolved = Route(.get, "/v1/resolved") { routes, request, _ in routes.resolved(request) }
        guard configuration.servesStudio else { return [resolved] }
        return [
            resolved,
            // The page and its code hold no data: a browser loads them without a token, and
            // the page then sends the token with its requests for data.
            Route(.get, "/studio", open: true, daemonWide: true) { _, request, _ in Self.studioFile(request) },
            Route(.get, "/studio/**", open: true, daemonWide: true) { _, request, _ in Self.studioFile(request) },
        ]
    }

    /// `GET /v1/resolved`: the current spec resolved for every look, with places
    /// (``SpecInspection``), tagged with the bundle's ETag.
    func resolved(_ request: Request) -> Response {
        guard let snapshot = hub.snapshot, let spec = snapshot.spec else {
            return shown(.noBundle(hub.errors), to: request).response()
        }
        var headers = HTTPFields()
        headers[.eTag] = snapshot.etag.description
        headers[.cacheControl] = "no-cache"
        if Self.isNotModified(request, etag: snapshot.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return JSONBody.response(spec.inspection(), headers: headers)
    }

    /// One of the studio's files; `/studio` and `/studio/` are its page.
    static func studioFile(_ request: Request) -> Response {
        var path = request.uri.path.dropFirst("/studio".count)
        if path.hasPrefix("/") { path = path.dropFirst() }
        guard let asset = StudioAssets.files[path.isEmpty ? "index.html" : String(path)] else {
            return Problem(kind: .notFound, detail: "the studio has no file '\(path)'").response(
                headers: studioHeaders)
        }
        return asset.response(to: request, headers: studioHeaders)
    }

    /// Sent with every studio answer. The policy allows only the studio's own files and calls
    /// to this daemon: no inline script or style, no other origin, no framing, no form posts,
    /// so text from a spec can never run as code even if a bug put it into the page as markup.
    static let studioHeaders: HTTPFields = {
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = studioContentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        // For browsers that predate `frame-ancestors`, which says the same.
        if let frameOptions = HTTPFields.Element.Name("X-Frame-Options") { headers[frameOptions] = "DENY" }
        if let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        return headers
    }()

    /// The studio's Content-Security-Policy.
    static let studioContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
