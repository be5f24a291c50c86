import CompressNIO
package import Foundation
package import Hummingbird
package import Livery
import LiveryHTTP

/// One published bundle: the merged spec as canonical JSON, its entity tag, and its
/// Server-Sent Events frame, encoded once and shared by every client. Its fields live in one
/// object, so that every request handed the current bundle takes one reference.
package struct BundleSnapshot: Sendable {
    private let storage: Storage

    /// The bundle as sent without `Content-Encoding`: `spec.bundleJSON` as UTF-8.
    public var identity: BundleRepresentation { storage.identity }
    /// The bundle gzip-compressed once, when it is published (like nginx's `gzip_static`), for
    /// the clients that accept it. `nil` only if zlib failed, and then every client gets
    /// ``identity``, which is always a correct answer.
    public var gzip: BundleRepresentation? { storage.gzip }
    /// The bundle as CSS (``Livery/Spec/styleSheet(theme:)``), rendered and compressed once
    /// per version for `GET /v1/css`.
    public var styleSheet: StyleSheetSnapshot { storage.styleSheet }
    /// The files the bundle was merged from, in merge order.
    public var files: [String] { storage.files }
    /// The spec itself, with the places its bundle no longer carries (for `GET /v1/resolved`);
    /// `nil` for a bundle wrapped from text.
    public var spec: Spec? { storage.spec }
    /// When the watcher published it.
    public var loadedAt: Date { storage.loadedAt }
    /// The `id:` / `event:` / `data:` frame of this bundle.
    var eventFrame: ByteBuffer { storage.eventFrame }
    /// The rollout the version signal carries beside this bundle (``BundleHub/rollout``), if any:
    /// kept here so that every waiter handed the current bundle also has the rollout of the same
    /// instant.
    public var rollout: Rollout? { storage.rollout }
    /// The flags OpenFeature's remote evaluation protocol reads from this version, made once.
    var flags: OFREPFlags { storage.flags }

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
        let identity = BundleRepresentation(bytes: ByteBuffer(string: json), contentEncoding: nil)
        storage = Storage(
            identity: identity,
            gzip: Self.compressed(identity.bytes).map { BundleRepresentation(bytes: $0, contentEncoding: "gzip") },
            styleSheet: StyleSheetSnapshot(spec: spec ?? (try? Spec(json: json))),
            files: files, spec: spec, flags: OFREPFlags(spec: spec), loadedAt: loadedAt,
            eventFrame: ByteBuffer(string: EventStreamFrame(id: identity.etagText, event: "spec", data: json).text),
            rollout: nil)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The body of a `200` from `GET /v1/version` that names this bundle (and its rollout).
    var versionSignal: ByteBuffer { JSONBody.encode(VersionSignal(etag: etagText, rollout: rollout)) }

    /// ``versionSignal`` as it is published to a front: carrying the bundles of `versions` (this
    /// one and a rollout's candidate) unless they take more than
    /// ``LiveryHTTP/VersionSignal/carriedBundleBytes`` in all, and signed delivery's `metadata`.
    func versionSignal(carrying versions: [BundleSnapshot], metadata: [String: String]? = nil) -> ByteBuffer {
        let fits = versions.reduce(0) { $0 + $1.bytes.readableBytes } <= VersionSignal.carriedBundleBytes
        let bundles =
            fits ? Dictionary(versions.map { ($0.etagText, String(buffer: $0.bytes)) }) { first, _ in first } : nil
        return JSONBody.encode(VersionSignal(etag: etagText, rollout: rollout, bundles: bundles, metadata: metadata))
    }

    /// What a client that read ``versionSignal`` sends back as `since=`: the rollout's
    /// ``LiveryHTTP/Rollout/signalTag``, else the tag without its quotes
    /// (``LiveryHTTP/BundlePath/urlForm(of:)``). A front that holds the waits names its channels so.
    var signalChannel: String { rollout?.signalTag ?? BundlePath.urlForm(of: etagText) }

    /// The same bundle with `rollout` in the version signal (bytes shared, not copied).
    func with(rollout: Rollout?) -> BundleSnapshot {
        BundleSnapshot(
            storage: Storage(
                identity: identity, gzip: gzip, styleSheet: styleSheet, files: files, spec: spec, flags: flags,
                loadedAt: loadedAt,
                eventFrame: eventFrame, rollout: rollout))
    }

    private final class Storage: Sendable {
        let identity: BundleRepresentation
        let gzip: BundleRepresentation?
        let styleSheet: StyleSheetSnapshot
        let files: [String]
        let spec: Spec?
        let flags: OFREPFlags
        let loadedAt: Date
        let eventFrame: ByteBuffer
        let rollout: Rollout?

        init(
            identity: BundleRepresentation, gzip: BundleRepresentation?, styleSheet: StyleSheetSnapshot,
            files: [String], spec: Spec?, flags: OFREPFlags, loadedAt: Date, eventFrame: ByteBuffer, rollout: Rollout?
        ) {
            self.rollout = rollout
            self.identity = identity
            self.gzip = gzip
            self.styleSheet = styleSheet
            self.files = files
            self.spec = spec
            self.flags = flags
            self.loadedAt = loadedAt
            self.eventFrame = eventFrame
        }
    }

    /// `bytes` gzip-compressed at the best level: done once per version, so the time is spent
    /// where it is paid back on every answer.
    static func compressed(_ bytes: ByteBuffer) -> ByteBuffer? {
        var source = bytes
        do {
            return try source.compress(with: .gzip(configuration: .init(compressionLevel: .bestCompression)))
        } catch {
            return nil  // documented on `gzip`: identity is served instead
        }
    }
}
