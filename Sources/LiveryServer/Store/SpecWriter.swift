import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// The one way the daemon writes specs, whatever the store: read the state, check the client's
/// precondition, validate the whole resulting set, commit over the state read; if another
/// writer got there first, start again from the new state.
///
/// Remote includes the new set needs are fetched between tries, never while a store holds a
/// lock. A race re-checks the precondition too, so a client that sent `If-Match` gets 412
/// rather than a write over a state it never saw.
struct SpecWriter: Sendable {
    let store: any SpecStore
    let configuration: DaemonConfiguration
    /// The running rollout, during which only a candidate push or a completion writes.
    let rollouts: RolloutGate
    /// One write at a time in this daemon: its own writes never race each other, so only other
    /// daemons' writes can make one validate again.
    private let mutex = AsyncMutex()
    /// The commits this writer made, for caches of the store's content.
    let commits = CommitCounter()
    /// With `--offline-targets`, the repository every commit must bring signed targets to
    /// (``TUFRepository/admit(_:for:)``); it publishes them once committed.
    let offlineTargets: TUFRepository?

    init(
        store: any SpecStore, configuration: DaemonConfiguration, rollouts: RolloutGate = RolloutGate(),
        offlineTargets: TUFRepository? = nil
    ) {
        self.store = store
        self.configuration = configuration
        self.rollouts = rollouts
        self.offlineTargets = offlineTargets
    }

    /// How many times a write is validated again after losing a race before it gives up (409).
    static let maxTries = 16
    /// The most files one write changes: etcd commits a write in one transaction, and refuses
    /// one of more than 128 operations by default (`--max-txn-ops`); a write also records and
    /// prunes its history entry.
    static let maxFiles = 100
    /// The most bytes of files one write carries: etcd refuses a request over 1.5 MiB by default
    /// (`--max-request-bytes`), and the files travel base64-encoded, a third larger.
    static let maxBytes = 1024 * 1024

    /// What the client made the write depend on.
    enum Precondition: Sendable {
        /// Nothing.
        case none
        /// `If-Match` on one file's ETag (PUT, DELETE).
        case file(String, EntityTagCondition)
        /// `If-Match` on the bundle's ETag (POST, restore).
        case bundle(EntityTagCondition)
        /// The bundle's ETag is still this one, or the files still do not load (`nil`): an
        /// approved change request's base (``ChangeBook``).
        case base(EntityTag?)
    }

    /// What a write did (or, for a dry run, would do).
    struct Result: Sendable {
        /// The paths written or removed, sorted.
        var paths: [String]
        /// The paths that did not exist before.
        var created: Set<String>
        /// The new ETag of each written file.
        var fileETags: [String: EntityTag]
        /// The ETag of the bundle the new set makes.
        var bundleETag: EntityTag
        /// The store revision of the commit; `nil` for a dry run.
        var revision: Int64?
        /// The spec the new set makes (what a dry run of `POST /v1/css` renders).
        var spec: Spec
        /// The whole set the change makes (a rollout's candidate).
        var sources: SpecSourceSet
    }

    /// Validates `change` against the store's whole set and, unless `dryRun`, commits it. While
    /// a rollout runs only a dry run (a candidate push is one) or the rollout's completion
    /// (`completing`) may write.
    func write(
        _ change: ChangeSet, precondition: Precondition, dryRun: Bool, completing: Bool = false
    ) async throws(StoreError) -> Result {
        try await write(change, matching: nil, precondition: precondition, dryRun: dryRun, completing: completing)
    }

    /// Makes the store hold exactly `sources` (a promotion), as ``write(_:precondition:dryRun:completing:)``
    /// writes a change; the change is worked out again from each state read, so a write that
    /// raced another one neither removes a file the other removed nor keeps one it added.
    func write(
        matching sources: SpecSourceSet, message: String, author: String, precondition: Precondition, dryRun: Bool,
        signedTargets: String? = nil
    ) async throws(StoreError) -> Result {
        var change = Self.change(from: try await store.read().sources, to: sources, message: message, author: author)
        change.signedTargets = signedTargets
        return try await write(change, matching: sources, precondition: precondition, dryRun: dryRun, completing: false)
    }

    private func write(
        _ change: ChangeSet, matching: SpecSourceSet?, precondition: Precondition, dryRun: Bool, completing: Bool
    ) async throws(StoreError) -> Result {
        try Self.checkSize(of: change)
        if !dryRun, !completing, let running = rollouts.runningID { throw .rolloutRunning(running) }
        try await store.checkWritable(change.paths)
        do {
            try await mutex.lock()
        } catch {
            throw .cancelled
        }
        defer { mutex.unlock() }
        return try await validateAndCommit(change, matching: matching, precondition: precondition, dryRun: dryRun)
    }

    private func validateAndCommit(
        _ first: ChangeSet, matching: SpecSourceSet?, precondition: Precondition, dryRun: Bool
    ) async throws(StoreError) -> Result {
        var remote = RemoteIncludes(allowList: configuration.allowedIncludes)
        for _ in 0..<Self.maxTries {
            let state = try await store.read()
            let change =
                matching.map { Self.change(from: state.sources, to: $0, message: first.message, author: first.author) }
                ?? first
            if change.files.isEmpty {
                // Nothing to change (a restore of the current state): the current bundle, unwritten.
                try await fetchIncludes(for: [state.sources], into: &remote)
                try check(precondition, against: state.sources, remote: remote)
                let spec = try build(state.sources, remote: remote)
                return Result(
                    paths: [], created: [], fileETags: [:], bundleETag: EntityTag(of: spec.bundleJSON.utf8),
                    spec: spec, sources: state.sources)
            }
            try Self.checkSize(of: change)
            var next = state.sources
            var created = Set<String>()
            for path in change.paths {
                let data = change.files[path] ?? nil
                let exists = state.sources.files[path] != nil
                if data == nil, !exists { throw .notFound(path) }
                if !exists { created.insert(path) }
                do {
                    try next.set(path, to: data)
                } catch {
                    throw .forbiddenPath(error)
                }
            }
            try await fetchIncludes(for: [next] + (precondition.needsBundle ? [state.sources] : []), into: &remote)
            try check(precondition, against: state.sources, remote: remote)
            let spec = try build(next, remote: remote)
            var result = Result(
                paths: change.paths, created: created,
                fileETags: change.files.compactMapValues { $0.map { EntityTag(of: $0) } },
                bundleETag: EntityTag(of: spec.bundleJSON.utf8), spec: spec, sources: next)
            if dryRun { return result }
            try await offlineTargets?.admit(first.signedTargets, for: spec)
            switch try await store.commit(change, over: state) {
            case .committed(let revision):
                commits.increment()
                await offlineTargets?.publishOffered()
                result.revision = revision
                return result
            case .raced:
                continue
            }
        }
        throw .tooManyRaces(Self.maxTries)
    }

    /// The spec `sources` make, remote includes fetched as for a write: a kept candidate, read
    /// again when the daemon starts.
    func spec(of sources: SpecSourceSet) async throws(StoreError) -> Spec {
        var remote = RemoteIncludes(allowList: configuration.allowedIncludes)
        try await fetchIncludes(for: [sources], into: &remote)
        return try build(sources, remote: remote)
    }

    /// Refuses a change over ``maxFiles`` or ``maxBytes`` before anything is read.
    static func checkSize(of change: ChangeSet) throws(StoreError) {
        guard change.files.count <= maxFiles else { throw .tooManyFiles(change.files.count) }
        let bytes = change.files.values.reduce(0) { $0 + ($1?.count ?? 0) }
        guard bytes <= maxBytes else { throw .changeTooLarge(bytes) }
    }

    /// The change that makes the store hold exactly `sources` (a restore).
    func change(toMatch sources: SpecSourceSet, message: String, author: String) async throws(StoreError) -> ChangeSet {
        Self.change(from: try await store.read().sources, to: sources, message: message, author: author)
    }

    /// The change that turns `now` into `sources`: the files added, changed and removed.
    private static func change(
        from now: SpecSourceSet, to sources: SpecSourceSet, message: String, author: String
    ) -> ChangeSet {
        var files: [String: Data?] = [:]
        for (path, file) in sources.files where now.files[path]?.data != file.data {
            files[path] = .some(file.data)
        }
        for path in now.files.keys where sources.files[path] == nil {
            files[path] = .some(nil)
        }
        return ChangeSet(files: files, message: message, author: author)
    }

    private func check(
        _ precondition: Precondition, against sources: SpecSourceSet, remote: RemoteIncludes
    ) throws(StoreError) {
        switch precondition {
        case .none:
            return
        case .file(let path, let condition):
            let current = sources.files[path].map { EntityTag(of: $0.data) }
            if !condition.matchesStrongly(current) { throw .preconditionFailed(path: path, current: current) }
        case .bundle(let condition):
            let current = bundleETag(of: sources, remote: remote)
            if !condition.matchesStrongly(current) { throw .bundleChanged(current: current) }
        case .base(let base):
            let current = bundleETag(of: sources, remote: remote)
            if current != base { throw .bundleChanged(current: current) }
        }
    }

    /// The ETag of the bundle `sources` make; `nil` when they do not validate.
    private func bundleETag(of sources: SpecSourceSet, remote: RemoteIncludes) -> EntityTag? {
        do {
            return EntityTag(of: try build(sources, remote: remote).bundleJSON.utf8)
        } catch {
            return nil  // the set as it is does not validate: no bundle can match
        }
    }

    /// The ETag of the bundle the store's files make now, `nil` when they do not load, and the
    /// files: what a change request is made against.
    func currentBundle() async throws(StoreError) -> (etag: EntityTag?, sources: SpecSourceSet) {
        let sources = try await store.read().sources
        var remote = RemoteIncludes(allowList: configuration.allowedIncludes)
        try await fetchIncludes(for: [sources], into: &remote)
        return (bundleETag(of: sources, remote: remote), sources)
    }

    /// The spec `sources` make, or every error they have.
    private func build(_ sources: SpecSourceSet, remote: RemoteIncludes) throws(StoreError) -> Spec {
        do {
            return try Spec(
                sources: sources, registry: configuration.registry, limits: configuration.readerLimits,
                remoteIncludes: remote)
        } catch {
            let all = Spec.validate(
                sources, registry: configuration.registry, limits: configuration.readerLimits, remoteIncludes: remote)
            throw .invalid(all.isEmpty ? [SpecError(.io, at: .start(of: ""), "\(error)")] : all)
        }
    }

    /// Fetches the allowed remote includes the sets name that `remote` has no document for yet.
    /// Each round either fetches something new or ends, and a set reaches at most
    /// ``Livery/RemoteIncludes/maxDocuments`` URLs, so the loop ends.
    private func fetchIncludes(for sets: [SpecSourceSet], into remote: inout RemoteIncludes) async throws(StoreError) {
        guard !configuration.allowedIncludes.isEmpty else { return }
        while true {
            let missing = Set(
                sets.flatMap {
                    Spec.missingRemoteIncludes($0, limits: configuration.readerLimits, remoteIncludes: remote)
                }
            ).filter { remote.documents[$0] == nil }
            guard !missing.isEmpty else { return }
            for url in missing {
                remote.documents[url] =
                    await configuration.includeFetcher?.fetch(url)
                    ?? .failed("this daemon has no fetcher for remote includes")
            }
        }
    }
}

extension SpecWriter.Precondition {
    var needsBundle: Bool {
        switch self {
        case .bundle, .base: true
        case .none, .file: false
        }
    }
}
