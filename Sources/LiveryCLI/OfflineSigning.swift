import ArgumentParser
import Foundation
import Livery
import LiveryServer
import LiveryTUF

/// What `livery push --sign-with KEY` adds to a publish for a daemon that keeps its targets key
/// offline (`livery serve --signing DIR --offline-targets`): the daemon's files are read, the
/// change applied, the new version built here with the daemon's own code (the same spec reader,
/// bundle encoder and stylesheet) and its targets metadata signed, one version past the
/// repository's. The publish depends on the files read (`If-Match`), so a change in between
/// fails cleanly instead of publishing a version other than the one signed.
struct OfflineSigning {
    var key: SigningKey
    var call: DaemonCall
    var registry: TraitRegistry

    /// The headers a publish of `change` carries: `Livery-Signed-Targets`, and `If-Match` with
    /// the bundle the change was applied to unless `ifMatch` is given. No signature when the new
    /// set does not build: the daemon refuses it anyway, naming every error's place.
    func headers(for change: [String: String?], ifMatch: String?, now: Date) async throws -> [(String, String)] {
        let current = try await currentSources()
        var next = current
        for (path, content) in change { try next.set(path, to: content.map { Data($0.utf8) }) }
        var headers: [(String, String)] = []
        if ifMatch == nil { headers.append(("If-Match", try bundleETag(of: current))) }
        let spec: Spec
        do {
            spec = try Spec(sources: next, registry: registry)
        } catch {
            return headers
        }
        var targets = try SignedMetadata(
            TargetsMetadata(
                version: try await targetsVersion() + 1,
                expires: now.addingTimeInterval(OnlineRoles.defaultTargetsLifetime),
                targets: TUFTargets.files(of: spec)))
        try targets.sign(with: key)
        headers.append((OfferedTargets.fieldName, Data(targets.bytes).base64EncodedString()))
        return headers
    }

    /// The ETag of the bundle `sources` make, as the daemon computes it.
    private func bundleETag(of sources: SpecSourceSet) throws -> String {
        EntityTag(of: try Spec(sources: sources, registry: registry).bundleJSON.utf8).description
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
            PushCommand.complain("error: GET \(path) was answered 202 Accepted, not the file")
            throw ExitCode(1)
        case .refused(let lines):
            for line in lines { PushCommand.complain(line) }
            throw ExitCode(1)
        }
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
