import Foundation
import Livery
import LiveryHTTP
import LiveryTUF
import Logging
import NIOCore

/// The spec set's TUF repository (`livery serve --signing`): new targets, snapshot and
/// timestamp metadata for every version the hub publishes, the timestamp re-signed at half its
/// life, and the files clients fetch.
///
/// The online metadata is kept in the store's `tuf` record ( ``RepositoryMetadata``), so
/// versions never go back across a restart; on etcd every daemon writes it over the version it
/// read, so of two daemons publishing the same bundle one signs and the other adopts what it
/// signed (through the store's follower, ``adopt(_:)``) instead of a version of its own.
///
/// With `--offline-targets` it holds no targets key: a write brings its targets signed
/// (``admit(_:for:)``), and only those are published (``publishOffered()``).
actor TUFRepository {
    /// The name of the store record that keeps the repository.
    static let recordName = "tuf"

    /// The root metadata and online keys (``SigningFolder``).
    nonisolated let folder: SigningFolder
    /// The online keys and lifetimes: which roles this daemon signs, and when (``TUFStatus`` too).
    nonisolated let roles: OnlineRoles
    private let hub: BundleHub
    private let store: any SpecStore
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var recordVersion: Int64 = 0
    /// What clients are served, read from the record the last time it changed.
    private nonisolated let served = ServedMetadata()
    /// With offline targets: the targets the last write brought, checked, until published.
    private var offered: SignedMetadata<TargetsMetadata>?

    init(
        folder: SigningFolder, roles: OnlineRoles, hub: BundleHub, store: any SpecStore,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.folder = folder
        self.roles = roles
        self.hub = hub
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// The metadata clients are served now, with its targets by path.
    nonisolated var files: ServedMetadata.Files? { served.files }

    /// Reads the store's record, so that the next publish follows its versions.
    func restore() async {
        do throws(StoreError) {
            adopt(try await store.record(named: Self.recordName))
        } catch {
            logger.error("cannot read the signed delivery's metadata", metadata: ["livery.error": "\(error)"])
        }
    }

    /// Takes `record` as the repository's metadata if it is the `tuf` record and newer than the
    /// one this daemon has (another daemon published or re-signed).
    func adopt(_ record: StoreRecord) {
        guard record.name == Self.recordName, record.version > recordVersion, let data = record.data else { return }
        do {
            served.files = try ServedMetadata.Files(JSONDecoder().decode(RepositoryMetadata.self, from: data))
            recordVersion = record.version
        } catch {
            logger.error(
                "the store's tuf record holds no repository metadata; ignored",
                metadata: ["livery.version": "\(record.version)", "livery.error": "\(error)"])
        }
    }

    /// Signs new metadata when the hub's current version (and the rollout's candidate) are not
    /// the targets served.
    func publishCurrent() async {
        guard let current = hub.snapshot else { return }
        let candidate = current.rollout.flatMap { rollout in
            rollout.state == .running ? hub.snapshot(version: rollout.candidate).map { (rollout, $0) } : nil
        }
        let files = TUFTargets.files(current: current, candidate: candidate)
        if roles.targetsKey == nil {
            await publishOffline(files, etag: current.etagText)
            return
        }
        await write("signed delivery: targets for \(current.etag)") { metadata in
            if let metadata, try metadata.currentTargets().signed.targets == files { return nil }
            return try roles.publishing(files, after: metadata, now: now())
        }
    }

    /// Signs the hub's current version if it is not yet (``publishCurrent()``), before the
    /// version signal names it, and returns the metadata a client verifies it with, by file name
    /// (``LiveryHTTP/VersionSignal/metadata``): the timestamp, the snapshot and targets it names
    /// and the newest root.
    func prepareSignal() async -> [String: String]? {
        await publishCurrent()
        guard let metadata = served.files?.metadata else { return nil }
        var files = [
            "timestamp.json": metadata.timestamp,
            "\(metadata.snapshotVersion).snapshot.json": metadata.snapshots[String(metadata.snapshotVersion)],
            "\(metadata.targetsVersion).targets.json": metadata.targets[String(metadata.targetsVersion)],
        ].compactMapValues { $0 }
        do {
            if let root = try folder.rootVersions().last {
                files["\(root).root.json"] = try String(contentsOf: folder.rootFile(version: root), encoding: .utf8)
            }
        } catch {
            logger.error("cannot read the signing folder's root metadata", metadata: ["livery.error": "\(error)"])
        }
        return files
    }

    /// Checks that `header` (``OfferedTargets``) carries the targets of the version `spec` makes,
    /// one version past the repository's, and keeps them for ``publishOffered()``.
    func admit(_ header: String?, for spec: Spec) throws(StoreError) {
        try admit(header, files: TUFTargets.files(of: spec))
    }

    /// Checks that `header` carries targets naming exactly `files` (a rollout's start, share
    /// change or abort: ``TUFTargets/files(current:candidate:)``), one version past the
    /// repository's, and keeps them for ``publishOffered()``.
    func admit(_ header: String?, files: [String: TargetFile]) throws(StoreError) {
        let root: RootMetadata
        do {
            root = try folder.latestRoot().signed
        } catch {
            throw .fileSystem("cannot read the signing folder's root metadata: \(error)")
        }
        offered = try OfferedTargets.verify(
            header, root: root, version: (served.files?.metadata.targetsVersion ?? 0) + 1, files: files, now: now())
    }

    /// Publishes the targets the last admitted write brought, with a new snapshot and
    /// timestamp, unless the repository has reached their version already.
    func publishOffered() async {
        guard let offered else { return }
        await write("signed delivery: targets \(offered.signed.version), signed offline") { metadata in
            if let metadata, metadata.targetsVersion >= offered.signed.version { return nil }
            return try roles.publishing(targets: offered, after: metadata, now: now())
        }
    }

    /// With offline targets, the hub's new version is published if a write brought its targets;
    /// a version nobody signed (an edit on disk, a write through another daemon) is not, and
    /// clients keep the last signed one.
    private func publishOffline(_ files: [String: TargetFile], etag: String) async {
        if let offered, offered.signed.targets == files {
            await publishOffered()
            return
        }
        do {
            if let metadata = served.files?.metadata, try metadata.currentTargets().signed.targets == files { return }
        } catch {
            logger.error("cannot read the signed delivery's targets", metadata: ["livery.error": "\(error)"])
            return
        }
        logger.warning(
            "the version served has no signed targets: clients of signed delivery keep the last signed version until a write brings them (livery push --sign-with)",
            metadata: ["livery.etag": "\(etag)"])
    }

    /// Re-signs what is due at the given clock's time: the timestamp past half its life.
    func refreshIfDue() async {
        await write("signed delivery: timestamp re-signed") { metadata in
            guard let metadata else { return nil }
            return try roles.refreshed(metadata, now: now())
        }
    }

    /// Writes what `change` makes of the metadata over the record's version; after losing a
    /// race to another daemon, reads the record again and asks `change` again.
    private func write(_ event: String, _ change: (RepositoryMetadata?) throws -> RepositoryMetadata?) async {
        for _ in 0..<3 {
            do {
                guard let next = try change(served.files?.metadata) else { return }
                let data = try JSONEncoder().encode(next)
                let written = try await store.write(
                    record: data, named: Self.recordName, over: recordVersion, event: event, by: nil,
                    keepingReportsOf: "")
                if let written {
                    served.files = try ServedMetadata.Files(next)
                    recordVersion = written
                    logger.info("signed delivery metadata signed", metadata: ["livery.event": "\(event)"])
                    return
                }
                adopt(try await store.record(named: Self.recordName))
            } catch {
                logger.error("cannot sign the signed delivery's metadata", metadata: ["livery.error": "\(error)"])
                return
            }
        }
        logger.error(
            "the signed delivery's record kept changing under this daemon; not signed",
            metadata: ["livery.event": "\(event)"])
    }
}
