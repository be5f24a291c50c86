package import Livery
import LiveryHTTP
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

    static func files(current: BundleSnapshot, candidate: (Rollout, BundleSnapshot)?) -> [String: TargetFile] {
        var files = files(of: current, prefix: "", custom: ["etag": .string(current.etagText)])
        if let (rollout, snapshot) = candidate {
            let record: CanonicalJSON = .object([
                "id": .string(rollout.id), "basisPoints": .integer(Int64(rollout.basisPoints)),
                "stable": .string(rollout.stable), "candidate": .string(rollout.candidate),
                "state": .string(rollout.state.rawValue),
            ])
            files.merge(
                Self.files(
                    of: snapshot, prefix: candidateFolder,
                    custom: ["etag": .string(snapshot.etagText), "rollout": record])
            ) { _, new in new }
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
