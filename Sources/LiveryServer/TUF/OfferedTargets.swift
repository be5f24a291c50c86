import Foundation
import HTTPTypes
import LiveryHTTP
import LiveryTUF

/// The targets metadata a write carries when the daemon keeps no targets key
/// (`livery serve --signing DIR --offline-targets`): the daemon publishes a version to signed
/// delivery only with targets that the root's targets keys signed, for exactly the targets it
/// builds, so that not even a compromised daemon can make clients apply a version nobody signed.
package enum OfferedTargets {
    /// The header a write carries them in: the bytes of the targets metadata file, in base64.
    package static let fieldName = "Livery-Signed-Targets"
    static let field = HTTPField.Name(fieldName)!  // a valid token

    /// The targets metadata `header` carries, checked: signed by at least the threshold of the
    /// targets keys `root` names, of `version`, not expired at `now`, naming exactly `files`.
    ///
    /// - Throws: ``StoreError/targetsNotSigned(_:)`` saying which check failed.
    static func verify(
        _ header: String?, root: RootMetadata, version: Int, files: [String: TargetFile], now: Date
    ) throws(StoreError) -> SignedMetadata<TargetsMetadata> {
        try requirePresent(header)
        guard let header, let bytes = Data(base64Encoded: header) else {
            throw .targetsNotSigned("the \(fieldName) header is not base64")
        }
        let targets: SignedMetadata<TargetsMetadata>
        do throws(TUFError) {
            targets = try SignedMetadata(bytes: bytes)
            try targets.verify(by: root)
        } catch {
            throw .targetsNotSigned("\(fieldName): \(error) by root version \(root.version)")
        }
        guard targets.signed.version == version else {
            throw .targetsNotSigned(
                "\(fieldName): targets version \(targets.signed.version), expected \(version) (the repository's is \(version - 1))"
            )
        }
        guard targets.signed.expires > now else {
            throw .targetsNotSigned(
                "\(fieldName): the targets expired at \(targets.signed.expires.formatted(.iso8601))")
        }
        guard targets.signed.targets == files else {
            throw .targetsNotSigned("\(fieldName): " + differences(signed: targets.signed.targets, built: files))
        }
        return targets
    }

    /// Refuses a write that carries no signed targets: what every write to a daemon with offline
    /// targets is refused for, and what a held or scheduled write is refused for when asked,
    /// before the targets it carries are checked at its time (``verify(_:root:version:files:now:)``).
    static func requirePresent(_ header: String?) throws(StoreError) {
        guard header == nil else { return }
        throw .targetsNotSigned(
            "the write carries no \(fieldName) header; this daemon keeps no targets key, so every write brings its targets metadata signed (--sign-with KEY on livery push, promote or rollout)"
        )
    }

    /// The rollout the candidate of the targets in `header` names, read without any check: a
    /// rollout started with signed targets takes its id from them (the writer chose it), and
    /// ``verify(_:root:version:files:now:)`` then checks everything else.
    static func rollout(in header: String?) -> Rollout? {
        guard let header, let bytes = Data(base64Encoded: header),
            let targets = try? SignedMetadata<TargetsMetadata>(bytes: bytes)
        else { return nil }
        return TUFTargets.rollout(in: targets.signed.targets)
    }

    /// The targets that differ, each with the length and SHA-256 the write makes.
    private static func differences(signed: [String: TargetFile], built: [String: TargetFile]) -> String {
        let names = Set(signed.keys).union(built.keys).filter { signed[$0] != built[$0] }.sorted()
        let each = names.map { name in
            guard let file = built[name] else { return "\(name) is signed but not a target of the version" }
            guard signed[name] != nil else { return "\(name) is not signed" }
            return "\(name) is signed for other bytes or fields (the version's: \(file.length) bytes, "
                + "sha256 \(file.sha256 ?? "?"))"
        }
        return "the signed targets are not the version this write makes: " + each.joined(separator: "; ")
    }
}
