import Foundation
import Livery
@_spi(LiveryInternal) import LiveryHTTP

/// Moves a version of one spec set to another: the target's files become exactly the source's
/// at that version, the files added, changed and removed, in one publish through the target's
/// ``SpecWriter`` — validated like any write (a set that does not load is refused and nothing
/// changes), under the client's `If-Match` on the target's bundle, one transaction on etcd —
/// and recorded in the target's history as `promoted from SOURCE at revision N`.
///
/// It knows the two sets only by their writers (a store each) and the source's name, so the
/// same promotion serves two environments of one daemon and two stores of a test.
struct Promotion: Sendable {
    /// Which version of the source.
    enum Version: Sendable {
        /// The newest revision of the source's history; its files as they are when it has none.
        case current
        /// A revision of the source's history.
        case revision(Int64)
        /// The version whose bundle has this ETag: the newest one that has it, of the history.
        case etag(EntityTag)
    }

    /// The source's files at a version, and the revision they are.
    struct Origin: Sendable {
        var sources: SpecSourceSet
        /// `nil` for a source that has no history yet.
        var revision: Int64?
    }

    /// What the history and the answers call the source (an environment's name).
    var sourceName: String
    /// The source's writer: its store, and what builds its bundles (to find a version by ETag).
    var source: SpecWriter
    var target: SpecWriter

    /// The source's files at `version`.
    func origin(_ version: Version) async throws(StoreError) -> Origin {
        switch version {
        case .revision(let revision):
            return Origin(sources: try await source.store.read(atRevision: revision).sources, revision: revision)
        case .current:
            guard let newest = try await source.store.history(limit: 1).first else {
                return Origin(sources: try await source.store.read().sources, revision: nil)
            }
            return try await origin(.revision(newest.revision))
        case .etag(let etag):
            for entry in try await source.store.history(limit: Int.max) {
                let origin = try await origin(.revision(entry.revision))
                if try await bundleETag(of: origin.sources) == etag { return origin }
            }
            throw .versionNotFound("\(sourceName) has no version with the ETag \(etag) in its history")
        }
    }

    /// Promotes `version`: publishes it on the target, or, given `rollout` (the target's keeper
    /// and a share), starts a staged rollout of it there instead, the target's stable version
    /// unchanged. The published set, or the rollout's candidate.
    func promote(
        _ version: Version, message: String, author: String, precondition: SpecWriter.Precondition,
        rollout: (keeper: RolloutKeeper, basisPoints: Int)? = nil, signedTargets: String? = nil
    ) async throws(RolloutError) -> SpecWriter.Result {
        let (origin, result): (Origin, SpecWriter.Result)
        do throws(StoreError) {
            origin = try await self.origin(version)
            result = try await write(
                origin, message: message, author: author, precondition: precondition, dryRun: rollout != nil,
                signedTargets: signedTargets)
        } catch {
            throw .store(error)
        }
        if let rollout {
            _ = try await rollout.keeper.start(
                result, basisPoints: rollout.basisPoints,
                message: Self.message(message, from: sourceName, at: origin.revision), replace: false,
                signedTargets: signedTargets)
        }
        return result
    }

    /// Publishes `origin` on the target, or with `dryRun` only validates it (what a rollout's
    /// candidate is); `signedTargets` as ``ChangeSet/signedTargets``.
    func write(
        _ origin: Origin, message: String, author: String, precondition: SpecWriter.Precondition, dryRun: Bool,
        signedTargets: String? = nil
    ) async throws(StoreError) -> SpecWriter.Result {
        try await target.write(
            matching: origin.sources, message: Self.message(message, from: sourceName, at: origin.revision),
            author: author, precondition: precondition, dryRun: dryRun, signedTargets: signedTargets)
    }

    /// What the target's history says: `promoted from staging at revision 12`, then the
    /// author's message if there is one.
    static func message(_ message: String, from name: String, at revision: Int64?) -> String {
        let origin = "promoted from \(name)" + (revision.map { " at revision \($0)" } ?? "")
        return message.isEmpty ? origin : "\(origin): \(message)"
    }

    /// What promoting `origin` would change on the target: files and resolved traits.
    func preview(_ origin: Origin) async throws(StoreError) -> PromotionPreview {
        let now = try await target.store.read().sources
        let before: Spec?
        do throws(StoreError) {
            before = try await target.spec(of: now)
        } catch {
            // A target that does not load now has no traits: every identifier of the source is new.
            guard case .invalid = error else { throw error }
            before = nil
        }
        return PromotionPreview(
            from: sourceName, revision: origin.revision, before: now, after: origin.sources,
            beforeSpec: before, afterSpec: try await source.spec(of: origin.sources))
    }

    private func bundleETag(of sources: SpecSourceSet) async throws(StoreError) -> EntityTag? {
        do {
            return EntityTag(of: try await source.spec(of: sources).bundleJSON.utf8)
        } catch {
            guard case .invalid = error else { throw error }
            return nil  // a revision that does not load has no bundle to match
        }
    }
}
