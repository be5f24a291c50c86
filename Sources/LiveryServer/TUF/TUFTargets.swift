package import Livery
package import LiveryHTTP
package import LiveryTUF
import NIOCore

/// The targets of a version: `bundle.json` (the bytes of `/v1/spec/{etag}`) and `livery.css`
/// (the bytes of `/v1/css/{etag}`), each with the version's ETag in `custom`; during a staged
/// rollout the candidate's as `candidate/bundle.json` and `candidate/livery.css`, with the
/// rollout beside the ETag.
package enum TUFTargets {
    static let bundle = "bundle.json"
    static let styleSheet = "livery.css"
    static let candidateFolder = "candidate/"

    /// The targets of the version `spec` makes, with no rollout: what `livery push --sign-with`
    /// signs, and what a daemon with offline targets checks a write's signed targets against.
    package static func files(of spec: Spec) -> [String: TargetFile] {
        files(current: BundleSnapshot(spec: spec), candidate: nil)
    }

    /// The targets while `rollout` runs with `candidate` over the stable version `spec` makes:
    /// what `livery push --rollout P% --sign-with` signs for a rollout's start.
    package static func files(of spec: Spec, candidate: (Rollout, Spec)) -> [String: TargetFile] {
        files(current: BundleSnapshot(spec: spec), candidate: (candidate.0, BundleSnapshot(spec: candidate.1)))
    }

    static func files(current: BundleSnapshot, candidate: (Rollout, BundleSnapshot)?) -> [String: TargetFile] {
        var files = files(of: current, prefix: "", custom: ["etag": .string(current.etagText)])
        if let (rollout, snapshot) = candidate {
            files.merge(
                Self.files(
                    of: snapshot, prefix: candidateFolder,
                    custom: ["etag": .string(snapshot.etagText), "rollout": record(of: rollout)])
            ) { _, new in new }
        }
        return files
    }

    /// The rollout as a candidate's targets carry it in `custom`.
    private static func record(of rollout: Rollout) -> CanonicalJSON {
        .object([
            "id": .string(rollout.id), "basisPoints": .integer(Int64(rollout.basisPoints)),
            "stable": .string(rollout.stable), "candidate": .string(rollout.candidate),
            "state": .string(rollout.state.rawValue),
        ])
    }

    /// The rollout the candidate of `targets` names in `custom`, if any.
    package static func rollout(in targets: [String: TargetFile]) -> Rollout? {
        guard case .object(let custom)? = targets[candidateFolder + bundle]?.custom,
            case .object(let record)? = custom["rollout"], case .string(let id)? = record["id"],
            case .integer(let basisPoints)? = record["basisPoints"], case .string(let stable)? = record["stable"],
            case .string(let candidate)? = record["candidate"], case .string(let state)? = record["state"],
            let state = Rollout.State(rawValue: state)
        else { return nil }
        return Rollout(id: id, basisPoints: Int(basisPoints), stable: stable, candidate: candidate, state: state)
    }

    /// A change of the running rollout, as its targets show it.
    package enum RolloutStep: Sendable {
        /// Its share becomes this many basis points.
        case share(Int)
        /// The candidate is withdrawn: the stable version's targets alone.
        case abort
        /// The candidate becomes the stable version, with no rollout.
        case complete
    }

    /// The targets the daemon publishes after `step` of the rollout whose targets are `targets`
    /// (``files(current:candidate:)`` of the same versions): what `livery rollout set|abort|complete
    /// --sign-with` signs, derived from the targets signed before rather than from bytes the
    /// daemon serves. `nil` when `targets` name no running rollout.
    package static func files(after step: RolloutStep, of targets: [String: TargetFile]) -> [String: TargetFile]? {
        guard var rollout = rollout(in: targets), rollout.state == .running,
            let candidateBundle = targets[candidateFolder + bundle],
            let candidateStyleSheet = targets[candidateFolder + styleSheet]
        else { return nil }
        var files = targets.filter { !$0.key.hasPrefix(candidateFolder) }
        switch step {
        case .share(let basisPoints):
            rollout.basisPoints = basisPoints
            for (name, file) in [(bundle, candidateBundle), (styleSheet, candidateStyleSheet)] {
                files[candidateFolder + name] = file.withCustom(["rollout": record(of: rollout)])
            }
        case .abort:
            break
        case .complete:
            for (name, file) in [(bundle, candidateBundle), (styleSheet, candidateStyleSheet)] {
                files[name] = file.withCustom(["rollout": nil])
            }
        }
        return files
    }

    private static func files(
        of snapshot: BundleSnapshot, prefix: String, custom: [String: CanonicalJSON]
    )
        -> [String: TargetFile]
    {
        [
            prefix + bundle: TargetFile(bytes: snapshot.bytes.readableBytesView, custom: .object(custom)),
            prefix + styleSheet: TargetFile(
                bytes: snapshot.styleSheet.identity.bytes.readableBytesView, custom: .object(custom)),
        ]
    }

    /// The bytes of the target `name` (its path in targets metadata, without the hash) of `snapshot`.
    static func bytes(of name: String, in snapshot: BundleSnapshot) -> ByteBuffer? {
        switch name.hasPrefix(candidateFolder) ? String(name.dropFirst(candidateFolder.count)) : name {
        case bundle: snapshot.bytes
        case styleSheet: snapshot.styleSheet.identity.bytes
        default: nil
        }
    }
}

extension TargetFile {
    /// The target with the members of `changes` set in its `custom` object (`nil` removes one).
    fileprivate func withCustom(_ changes: [String: CanonicalJSON?]) -> TargetFile {
        var file = self
        guard case .object(var members)? = custom else { return file }
        for (name, value) in changes { members[name] = value }
        file.custom = .object(members)
        return file
    }
}
