import Foundation
import Livery

/// Decides what a fetched body means for the consumer: a new spec, a parse error, or nothing.
///
/// It remembers the last body it published (good or bad), by validator and by digest, so the same
/// content is never published twice in a row: a server that sends no validators returns the same
/// bytes on every poll, a long-poll or an event may repeat the current ETag after a reconnect, and
/// a bad body is reported once, not at every poll. Transport failures do not reset it, so an
/// outage followed by the same content publishes nothing.
struct UpdateGate {
    let registry: TraitRegistry
    let limits: ReaderLimits
    let unknownTraits: UnknownTraitPolicy
    private var lastETag: String?
    private var lastDigest: BodyDigest?

    init(registry: TraitRegistry, limits: ReaderLimits, unknownTraits: UnknownTraitPolicy = .rejectSpec) {
        self.registry = registry
        self.limits = limits
        self.unknownTraits = unknownTraits
    }

    /// What to publish for `body`, or `nil` when it is what was published last.
    ///
    /// - Parameters:
    ///   - source: The name parse errors carry as their file: the URL.
    ///   - endpoint: The endpoint that served it, or `nil` for the offline cache.
    mutating func consider(
        _ body: Data, etag: String?, lastModified: String?, format: SpecFormat, source: String, endpoint: URL?
    ) -> RemoteUpdate? {
        if let etag, etag == lastETag { return nil }
        let digest = BodyDigest(body)
        guard digest != lastDigest else {
            lastETag = etag
            return nil
        }
        lastETag = etag
        lastDigest = digest
        do {
            let spec = try Spec(
                data: body, format: format, source: source, registry: registry, limits: limits,
                unknownTraits: unknownTraits)
            return .loaded(
                spec, RemoteVersion(etag: etag, lastModified: lastModified, digest: digest, endpoint: endpoint))
        } catch {
            return .failed(error)
        }
    }

    /// The syntax of a body: from its `Content-Type` when that names JSON or YAML, else from the
    /// URL's extension, else JSON (the daemon's bundle format).
    static func format(contentType: String?, url: URL) -> SpecFormat {
        let mediaType =
            contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if mediaType.hasSuffix("yaml") { return .yaml }  // application/yaml, text/x-yaml, …
        if mediaType.hasSuffix("json") { return .json }  // application/json, application/…+json
        return SpecFormat(pathExtension: url.pathExtension) ?? .json
    }
}
