import ArgumentParser
import Foundation
import Livery
import LiveryServer
import LiveryTUF

/// What `--sign-with KEY` adds to a write for a daemon that keeps its targets key offline
/// (`livery serve --signing DIR --offline-targets`): the targets metadata of what the write
/// publishes, one version past the repository's, signed here and sent base64 in
/// `Livery-Signed-Targets`. The daemon checks it as it checks every write's, now or, for a
/// held change or a scheduled one, when it is applied.
///
/// A push or promotion builds its version here with the daemon's own code (the same spec
/// reader, bundle encoder and stylesheet) from the daemon's files; the write depends on the
/// files read (`If-Match`, ``Signed/base``), so a change in between fails cleanly instead of
/// publishing a version other than the one signed. A rollout's share change, abort or
/// completion changes nothing but the rollout: its targets are the ones signed before with the
/// same key, the rollout's custom fields changed as the daemon changes them
/// (``LiveryServer/TUFTargets/files(after:of:)``).
struct OfflineSigning {
    var key: SigningKey
    var call: DaemonCall
    var registry: TraitRegistry = .standard

    /// The signed targets of a write, and what they were built from.
    struct Signed {
        /// The `Livery-Signed-Targets` header; `nil` when the new set does not build (the daemon
        /// refuses it anyway, naming every error's place).
        var targets: (String, String)?
        /// The ETag of the bundle the daemon's files made when read: what a write made now
        /// depends on (`If-Match`).
        var base: String

        /// The headers of a write made now: `If-Match` on ``base`` unless `ifMatch` is given.
        func headers(ifMatch: String?) -> [(String, String)] {
            (ifMatch == nil ? [("If-Match", base)] : []) + (targets.map { [$0] } ?? [])
        }
    }

    /// The targets of a publish of `change` over the daemon's files; with `rollout` (a share in
    /// basis points) those of a staged rollout of the new set instead, with an id chosen here,
    /// which the daemon takes from the signed targets.
    func sign(_ change: [String: String?], rollout: Int? = nil, now: Date) async throws -> Signed {
        let current = try await currentSources()
        var next = current
        for (path, content) in change { try next.set(path, to: content.map { Data($0.utf8) }) }
        return try await sign(next, over: current, rollout: rollout, now: now)
    }

    /// The targets of a promotion from the environment `from` (its files as they are now), the
    /// daemon's files becoming exactly those; with `rollout`, a staged rollout of them instead.
    func sign(promotingFrom from: String, rollout: Int? = nil, now: Date) async throws -> Signed {
        var source = call
        source.environment = from
        let promoted = try await OfflineSigning(key: key, call: source, registry: registry).currentSources()
        return try await sign(promoted, over: try await currentSources(), rollout: rollout, now: now)
    }

    /// The targets of `next`, over the daemon's `current` files.
    private func sign(
        _ next: SpecSourceSet, over current: SpecSourceSet, rollout: Int?, now: Date
    ) async throws -> Signed {
        let stable = try Spec(sources: current, registry: registry)
        let base = EntityTag(of: stable.bundleJSON.utf8).description
        let spec: Spec
        do {
            spec = try Spec(sources: next, registry: registry)
        } catch {
            return Signed(targets: nil, base: base)
        }
        let files: [String: TargetFile]
        if let rollout {
            let candidate = Rollout(
                id: Rollout.newID(), basisPoints: rollout, stable: base,
                candidate: EntityTag(of: spec.bundleJSON.utf8).description)
            files = TUFTargets.files(of: stable, candidate: (candidate, spec))
        } else {
            files = TUFTargets.files(of: spec)
        }
        return Signed(targets: try signed(files, version: try await targetsVersion() + 1, now: now), base: base)
    }

    /// The header of a change of the running rollout: the repository's current targets, which
    /// must be signed by this key, as `step` leaves them.
    func sign(_ step: TUFTargets.RolloutStep, now: Date) async throws -> (String, String) {
        let version = try await targetsVersion()
        guard version > 0 else { try Self.fail("the daemon has published no signed targets, so no rollout runs") }
        let current: SignedMetadata<TargetsMetadata>
        do {
            current = try SignedMetadata(bytes: try await read("/v1/tuf/metadata/\(version).targets.json"))
            try current.verify(
                role: RoleKeys(keyids: [key.publicKey.id]), keys: [key.publicKey.id: key.publicKey])
        } catch let error as TUFError {
            try Self.fail(
                "the daemon's targets version \(version) are not signed with this key (\(error)): only targets it signed are changed"
            )
        }
        guard let files = TUFTargets.files(after: step, of: current.signed.targets) else {
            try Self.fail("the daemon's signed targets (version \(version)) name no running rollout")
        }
        return try signed(files, version: version + 1, now: now)
    }

    /// `files` as targets metadata `version`, signed with the key, as a header.
    private func signed(_ files: [String: TargetFile], version: Int, now: Date) throws -> (String, String) {
        var targets = try SignedMetadata(
            TargetsMetadata(
                version: version, expires: now.addingTimeInterval(OnlineRoles.defaultTargetsLifetime),
                targets: files))
        try targets.sign(with: key)
        return (OfferedTargets.fieldName, Data(targets.bytes).base64EncodedString())
    }

    /// Every file the daemon's spec set holds.
    private func currentSources() async throws -> SpecSourceSet {
        let listing = try JSONDecoder().decode(Listing.self, from: try await read("/v1/specs"))
        var sources = SpecSourceSet()
        for entry in listing.files {
            try sources.set(entry.path, to: try await read("/v1/specs/\(PushRequest.encoded(entry.path))"))
        }
        return sources
    }

    /// The version of the repository's current targets metadata (0 before the first).
    private func targetsVersion() async throws -> Int {
        try JSONDecoder().decode(Status.self, from: try await read("/v1/tuf/status")).roles["targets"]?.version ?? 0
    }

    private func read(_ path: String) async throws -> Data {
        switch try await call.send(path) {
        case .ok(let body): return body
        case .held:
            try Self.fail("GET \(path) was answered 202 Accepted, not the file")
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
    }

    private static func fail(_ message: String) throws -> Never {
        PushCommand.complain("error: --sign-with: \(message)")
        throw ExitCode(1)
    }

    private struct Listing: Decodable {
        var files: [SpecFileEntry]
    }

    /// The part of `GET /v1/tuf/status` read here.
    private struct Status: Decodable {
        struct Role: Decodable {
            var version: Int?
        }
        var roles: [String: Role]
    }
}
