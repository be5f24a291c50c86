import AsyncHTTPClient
import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import LiveryTUF
import Logging
import NIOCore
import NIOHTTP1

extension FetchSession {
    /// The version `wanted` (an ETag the version signal named) as The Update Framework's client
    /// workflow verifies it, from the repository of the environment followed (`/v1/tuf/`, or
    /// `/v1/environments/{environment}/tuf/`): each next root
    /// (`N.root.json` until a 404), `timestamp.json`, the snapshot and the targets metadata it
    /// names, then the `bundle.json` target whose custom `etag` is `wanted` (a rollout's
    /// candidate), else the current `bundle.json`, fetched as `targets/{sha256}.bundle.json`
    /// and checked against the length and hash signed. What each step verified stays trusted
    /// (and kept in the cache folder) though a later one fails. A refusal is reported
    /// (`refused` and a `note` naming the check) and thrown as a ``RemoteError/Code/refused``.
    /// With `wanted` nil (a ``recheckVerified()``) the version applied is sought, else the current
    /// `bundle.json`, and whatever the targets sign beside the one applied is applied. A bundle
    /// the version signal carried (`carried`, from a front) stands for the target's fetch when
    /// its length and hash are the ones signed, as a fetched one must be.
    func fetchVerified(_ wanted: String?, root: URL, carried: VersionSignal? = nil) async throws {
        let tuf = EnvironmentPath.url(url, route: "/v1/tuf", environment: configuration.environment)
        do {
            var repository = try trusted ?? loadTrusted(root: root)
            defer { keep(repository) }
            try await refresh(&repository, metadata: tuf.appending(path: "metadata"), carried: carried?.metadata ?? [:])
            let targets = repository.targets?.signed.targets ?? [:]
            let sought = wanted ?? etag
            let chosen =
                targets.first { name, target in
                    name.hasSuffix(Self.bundleTarget) && sought.map { Self.names(target, $0) } == true
                }
                ?? targets[Self.bundleTarget].map { (key: Self.bundleTarget, value: $0) }
            guard let chosen, let signed = Self.etag(of: chosen.value) else {
                throw TUFRefusal("targets", "no \(Self.bundleTarget) with an etag is signed")
            }
            let (name, target) = chosen
            if let wanted, !Self.names(target, wanted) {
                throw RemoteError(
                    .invalidResponse, url: tuf.absoluteString, "the signed targets do not name version \(wanted) yet")
            }
            guard !(etag.map { Self.names(target, $0) } ?? false) else { return }
            let path = tuf.appending(path: "targets/" + (try repository.path(ofTarget: name, target)))
            let body: Data
            if let bundle = carried?.carriedBundle(of: signed).map({ Data($0.utf8) }),
                (try? TrustedRepository.checkTarget(bundle, name: name, target)) != nil
            {
                body = bundle
            } else {
                body = try await fetchTarget(path, name: name, target)
            }
            failures = 0
            etag = signed
            publish(body, etag: signed, format: .json, source: path)
        } catch let refusal as TUFRefusal {
            appliedVersion.recordVerificationRefused(etag: wanted, note: "tuf: \(refusal)")
            logger.error(
                "verification refused, keeping the last good spec",
                metadata: metadata.merging([
                    "livery.tuf.check": "\(refusal.check)", "livery.remote.version": "\(wanted ?? "none named")",
                ]) { $1 })
            throw RemoteError(.refused, url: tuf.absoluteString, "\(refusal)", underlying: refusal)
        }
    }

    static let bundleTarget = "bundle.json"

    /// Target `name` fetched from `path`, its length and hash checked against `target`.
    private func fetchTarget(_ path: URL, name: String, _ target: TargetFile) async throws -> Data {
        let response = try await execute(request(path), timeout: configuration.readTimeout)
        guard response.status.code == 200 else { throw statusError(response, url: path) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: min(target.length, configuration.limits.maxBytes))
        } catch is NIOTooManyBytesError {
            throw TUFRefusal("target length", "\(name) is longer than the \(target.length) bytes signed")
        }
        try TrustedRepository.checkTarget(body.readableBytesView, name: name, target)
        return Data(body.readableBytesView)
    }

    /// With ``RemoteSpecSource/Trust/tuf(root:)``, before each wait for the version signal:
    /// refreshes the trusted metadata, though the signal names nothing new, once what is trusted
    /// has expired (the timestamp, a day by default; or nothing was verified since the start). So
    /// a front that freezes the signal and `timestamp.json` alike is refused when that timestamp
    /// expires (`timestamp expired`, reported without a version), the last good spec kept, and
    /// one that froze the signal alone is passed by: the version the targets sign is applied.
    /// Until then nothing more is fetched than without it.
    func recheckVerified() async throws {
        guard case .tuf(let root) = configuration.trust, etag != nil else { return }
        if let trusted, configuration.now() < trusted.expires { return }
        try await fetchVerified(nil, root: root)
    }

    /// 5.3 to 5.6: the roots, the timestamp, the snapshot and the targets, each checked. A file
    /// the version signal carried (`carried`, by name) stands for its fetch; the newest root it
    /// carried ends the search for a next root there, as a 404 for the one after it would.
    private func refresh(
        _ repository: inout TrustedRepository, metadata base: URL, carried: [String: String]
    ) async throws {
        let now = configuration.now()
        let first = repository.root.signed.version
        let newestCarriedRoot = carried.keys.compactMap { name in
            name.hasSuffix(".root.json") ? Int(name.dropLast(".root.json".count)) : nil
        }.max()
        for next in (first + 1)...(first + TrustedRepository.maxRootRotations) {
            if let newestCarriedRoot, next > newestCarriedRoot { break }
            guard let bytes = try await metadataFile("\(next).root.json", base, carried, absentIsEnd: true) else {
                break
            }
            try repository.updateRoot(bytes)
        }
        try repository.checkRootExpiry(now: now)
        try repository.updateTimestamp(try await metadataFile("timestamp.json", base, carried) ?? [], now: now)
        if let meta = repository.snapshotToFetch {
            let name = repository.fileName(role: SnapshotMetadata.roleName, version: meta.version)
            try repository.updateSnapshot(try await metadataFile(name, base, carried) ?? [], now: now)
        }
        if let meta = try repository.targetsToFetch() {
            let name = repository.fileName(role: TargetsMetadata.roleName, version: meta.version)
            try repository.updateTargets(try await metadataFile(name, base, carried) ?? [], now: now)
        }
        try repository.checkExpiry(now: now)
    }

    /// The bytes of metadata file `name`, carried or fetched; `nil` for a 404 or 403 when
    /// `absentIsEnd` (no next root).
    private func metadataFile(
        _ name: String, _ base: URL, _ carried: [String: String], absentIsEnd: Bool = false
    ) async throws -> [UInt8]? {
        if let text = carried[name] { return Array(text.utf8) }
        let target = base.appending(path: name)
        let response = try await execute(request(target), timeout: configuration.readTimeout)
        if absentIsEnd, [403, 404].contains(response.status.code) { return nil }
        guard response.status.code == 200 else { throw statusError(response, url: target) }
        return Array(try await response.body.collect(upTo: TrustedMetadataStore.maxBytes).readableBytesView)
    }

    /// The repository trusted at the start: the kept metadata, else the root the program ships.
    private func loadTrusted(root: URL) throws -> TrustedRepository {
        let shipped = Array(try LocalFile.contents(of: root.path))
        do {
            return try metadataStore?.load(shipped: shipped) ?? TrustedRepository(root: SignedMetadata(bytes: shipped))
        } catch let error as TUFError {
            throw TUFRefusal("root", "\(root.path) or the metadata kept: \(error)")
        }
    }

    /// Trusts `repository` from now on, and keeps it in the cache folder.
    private func keep(_ repository: TrustedRepository) {
        trusted = repository
        guard let metadataStore else { return }
        do {
            try metadataStore.store(repository)
        } catch {
            logger.error(
                "could not keep the trusted metadata",
                metadata: metadata.merging(["livery.remote.error": "\(error)"]) { $1 })
        }
    }

    /// Whether `target` is the version `etag` (quoted or not).
    private static func names(_ target: TargetFile, _ etag: String) -> Bool {
        self.etag(of: target).map(EntityTag.opaque(of:)) == EntityTag.opaque(of: etag)
    }

    /// The version a target is, from its custom `etag`.
    private static func etag(of target: TargetFile) -> String? {
        guard case .object(let custom)? = target.custom, case .string(let etag)? = custom["etag"] else { return nil }
        return etag
    }
}
