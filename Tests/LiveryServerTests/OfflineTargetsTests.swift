import Foundation
import Livery
import LiveryServer
import LiveryTUF
import LiveryTesting
import Testing

/// `livery serve --signing DIR --offline-targets`: the daemon holds no targets key, so a write
/// is published only with targets metadata the root's targets key signed for exactly the
/// version it makes; any other write is refused (403 `targets-not-signed`) and changes nothing.
@Suite(.timeLimit(.minutes(1))) struct OfflineTargetsTests {
    /// The example specs (``TestDaemon/writeExample(to:accent:)``) with `palette.yaml`'s accent.
    static func example(accent: String) -> [String: String] {
        [
            "palette.yaml": palette(accent),
            "card.yaml":
                "include: [palette.yaml]\nspecs:\n  card:\n    - { type: BackgroundColor, color: \"@colors.accent\" }\n    - { type: CornerRadius, radius: 8 }\n",
        ]
    }

    /// The example's `palette.yaml` with `accent`.
    static func palette(_ accent: String) -> String { "variables:\n  colors:\n    accent: \"\(accent)\"\n" }

    /// The spec `files` make.
    static func spec(_ files: [String: String]) throws -> Spec {
        var sources = SpecSourceSet()
        for (path, text) in files { try sources.set(path, to: Data(text.utf8)) }
        return try Spec(sources: sources)
    }

    /// The `Livery-Signed-Targets` header for the version `files` make: targets `version`,
    /// signed by `key`.
    static func signedTargets(of files: [String: String], version: Int, key: SigningKey) throws -> String {
        try signedTargets(TUFTargets.files(of: try spec(files)), version: version, key: key)
    }

    /// The `Livery-Signed-Targets` header of `targets`, version `version`, signed by `key`.
    static func signedTargets(_ targets: [String: TargetFile], version: Int, key: SigningKey) throws -> String {
        var metadata = try SignedMetadata(
            TargetsMetadata(version: version, expires: Date().addingTimeInterval(86_400), targets: targets))
        try metadata.sign(with: key)
        return Data(metadata.bytes).base64EncodedString()
    }

    /// A signing folder whose targets key is moved out of it, the daemon's signing, and the key.
    static func offlineSigning(in scratch: TemporarySpecFolder) throws -> (DaemonSigning, SigningKey) {
        let folder = try SigningFolder.create(at: scratch.url.appending(path: "signing"), now: Date())
        let key = try KeyFile.read(folder.keyFile(of: TargetsMetadata.roleName))
        #expect(throws: TUFError.self, "the targets key is still in the folder") {
            try DaemonSigning(folder: folder, offlineTargets: true)
        }
        try FileManager.default.removeItem(at: folder.keyFile(of: TargetsMetadata.roleName))
        return (try DaemonSigning(folder: folder, offlineTargets: true), key)
    }

    /// The targets metadata the daemon's repository serves now (version 0 and none before the
    /// first), as `/v1/tuf/` serves it, verified by `signing`'s root: its version, its bytes in
    /// base64, and what it signs.
    static func servedTargets(
        _ server: TestDaemon, _ signing: DaemonSigning, environment: String? = nil
    ) async throws -> (version: Int, base64: String?, targets: [String: TargetFile]) {
        let tuf = environment.map { "/v1/environments/\($0)/tuf" } ?? "/v1/tuf"
        let roles = try await server.http.get("\(tuf)/status").json()["roles"] as? [String: Any]
        guard let version = (roles?["targets"] as? [String: Any])?["version"] as? Int else { return (0, nil, [:]) }
        let bytes = try await server.http.get("\(tuf)/metadata/\(version).targets.json").body
        let metadata = try SignedMetadata<TargetsMetadata>(bytes: bytes)
        try metadata.verify(by: try signing.folder.latestRoot().signed)
        return (version, Data(bytes).base64EncodedString(), metadata.signed.targets)
    }

    @Test func onlyAWriteWithTargetsSignedForItsVersionIsPublished() async throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-offline-targets")
        let (signing, key) = try Self.offlineSigning(in: scratch)
        try await TestDaemon.with(configure: { $0.signing = signing }) { server in
            #expect(
                try await server.http.get("/v1/tuf/metadata/timestamp.json").status == 404,
                "nothing is signed before a signed write")
            let palette = "variables:\n  colors:\n    accent: \"#FF0000\"\n"
            let signedRed = try Self.signedTargets(of: Self.example(accent: "#FF0000"), version: 1, key: key)
            let before = try await server.http.get("/v1/spec").header("ETag")

            let refusals: [(String, [(String, String)])] = [
                ("no signature", []),
                (
                    "a key not in root",
                    [
                        (
                            OfferedTargets.fieldName,
                            try Self.signedTargets(of: Self.example(accent: "#FF0000"), version: 1, key: SigningKey())
                        )
                    ]
                ),
                (
                    "targets of other bytes",
                    [
                        (
                            OfferedTargets.fieldName,
                            try Self.signedTargets(of: Self.example(accent: "#00FF00"), version: 1, key: key)
                        )
                    ]
                ),
                (
                    "a version that is not the next",
                    [
                        (
                            OfferedTargets.fieldName,
                            try Self.signedTargets(of: Self.example(accent: "#FF0000"), version: 2, key: key)
                        )
                    ]
                ),
                ("not base64", [(OfferedTargets.fieldName, "%%%")]),
            ]
            for (why, headers) in refusals {
                let reply = try await server.http.publish(["palette.yaml": palette], headers: headers)
                #expect(reply.status == 403, "\(why): \(reply.text)")
                #expect(try reply.json()["type"] as? String == "urn:livery:problem:targets-not-signed", "\(why)")
            }
            let put = try await server.http.put("/v1/specs/palette.yaml", palette)
            #expect(put.status == 403, "a PUT without signature: \(put.text)")
            let delete = try await server.http.delete("/v1/specs/card.yaml")
            #expect(delete.status == 403, "a DELETE without signature: \(delete.text)")
            #expect(try await server.http.get("/v1/spec").header("ETag") == before, "nothing changed")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text.contains("#0A84FF"))
            #expect(try await server.http.get("/v1/tuf/metadata/timestamp.json").status == 404)
            let unsigned = try #require(try await server.http.get("/v1/tuf/status").json()["roles"] as? [String: Any])
            let unsignedTargets = try #require(unsigned["targets"] as? [String: Any])
            #expect(unsignedTargets["online"] as? Bool == false, "the status says the targets key is offline")
            #expect(unsignedTargets["version"] == nil && unsignedTargets["renews"] == nil, "\(unsignedTargets)")
            let unsignedTimestamp = try #require(unsigned["timestamp"] as? [String: Any])
            #expect(unsignedTimestamp["online"] as? Bool == true && unsignedTimestamp["version"] == nil)

            let accepted = try await server.http.publish(
                ["palette.yaml": palette], headers: [(OfferedTargets.fieldName, signedRed)])
            #expect(accepted.status == 200, "\(accepted.text)")
            let root = try signing.folder.latestRoot().signed
            let timestamp = try SignedMetadata<TimestampMetadata>(
                bytes: try await server.http.get("/v1/tuf/metadata/timestamp.json").body)
            try timestamp.verify(by: root)
            let snapshot = try SignedMetadata<SnapshotMetadata>(
                bytes: try await server.http.get(
                    "/v1/tuf/metadata/\(try #require(timestamp.signed.snapshot?.version)).snapshot.json"
                ).body)
            try snapshot.verify(by: root)
            #expect(snapshot.signed.meta["targets.json"]?.version == 1)
            let signed = try #require(try await server.http.get("/v1/tuf/status").json()["roles"] as? [String: Any])
            let signedTargets = try #require(signed["targets"] as? [String: Any])
            #expect(signedTargets["version"] as? Int == 1 && signedTargets["online"] as? Bool == false)
            #expect(signedTargets["renews"] == nil, "the daemon never signs offline targets anew")
            #expect(
                (signed["snapshot"] as? [String: Any])?["renews"] is String,
                "the daemon signs the snapshot anew over offline targets")
            let published = try await server.http.get("/v1/tuf/metadata/1.targets.json").body
            #expect(Data(published).base64EncodedString() == signedRed, "the signed targets as the write brought them")

            let target = try #require(
                try SignedMetadata<TargetsMetadata>(bytes: published).signed.targets["bundle.json"])
            let served = try await TestDaemon.eventually {
                target.matches(try await server.http.get("/v1/spec").body)
            }
            #expect(served, "the daemon serves the bytes signed")
            let restore = try await server.http.post("/v1/history/1/restore", json: "")
            #expect(restore.status == 403, "a restore without signature: \(restore.text)")
            #expect(try await server.http.get("/v1/specs/palette.yaml").text.contains("#FF0000"))

            let rollout = try await server.http.put(
                "/v1/specs/palette.yaml?rollout=10", "variables:\n  colors:\n    accent: \"#00FF00\"\n")
            #expect(rollout.status == 403, "a rollout without signed targets: \(rollout.text)")
        }
    }
}
