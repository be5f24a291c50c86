import Foundation
import Hummingbird
import LiveryTUF

extension DaemonRoutes {
    /// The routes of signed delivery (The Update Framework), each environment's: a spec set is
    /// one repository (``SpecSet/signing``), served for each environment like every spec-set route.
    static var tufRoutes: [Route] {
        [
            Route(.get, "/v1/tuf/metadata/{file}") { routes, _, context in try routes.tufMetadata(context: context) },
            Route(.get, "/v1/tuf/targets/{file}") { routes, _, context in
                try routes.tufTarget(folder: "", context: context)
            },
            Route(.get, "/v1/tuf/targets/candidate/{file}") { routes, _, context in
                try routes.tufTarget(folder: TUFTargets.candidateFolder, context: context)
            },
            Route(.get, "/v1/tuf/status") { routes, _, _ in try routes.tufStatus() },
        ]
    }

    /// Files that never change are cached for a year; `timestamp.json` and `root.json` (the
    /// newest root) change, and are revalidated on every use.
    private static let immutable = "public, max-age=31536000, immutable"
    private static let revalidated = "no-cache"

    private func signingRepository() throws(Problem) -> TUFRepository {
        guard let signing = specSet.signing else {
            throw Problem(
                kind: .notFound, detail: "signed delivery is off: start the daemon with livery serve --signing DIR")
        }
        return signing
    }

    /// `GET /v1/tuf/metadata/{file}`: `root.json`, `N.root.json`, `timestamp.json`,
    /// `N.snapshot.json` or `N.targets.json`.
    func tufMetadata(context: BasicRequestContext) throws(Problem) -> Response {
        let repository = try signingRepository()
        let name = context.parameters.get("file") ?? ""
        let parts = name.split(separator: ".", maxSplits: 1)
        let version = parts.count == 2 ? Int(parts[0]) : nil
        let metadata = repository.files?.metadata
        let found: (bytes: [UInt8], cache: String)?
        switch (version, version == nil ? name : String(parts[1])) {
        case (nil, "timestamp.json"): found = metadata.map { (Array($0.timestamp.utf8), Self.revalidated) }
        case (nil, "root.json"): found = (try rootFile(repository.folder, version: nil), Self.revalidated)
        case (let version?, "root.json"): found = (try rootFile(repository.folder, version: version), Self.immutable)
        case (let version?, "snapshot.json"):
            found = metadata?.snapshots[String(version)].map { (Array($0.utf8), Self.immutable) }
        case (let version?, "targets.json"):
            found = metadata?.targets[String(version)].map { (Array($0.utf8), Self.immutable) }
        default: found = nil
        }
        guard let found else {
            throw Problem(kind: .notFound, detail: "no metadata file \(name) in the signed delivery's repository")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: found.cache],
            body: .init(byteBuffer: ByteBuffer(bytes: found.bytes)))
    }

    /// The bytes of root metadata `version` (the newest for `nil`), as the signing folder has it.
    private func rootFile(_ folder: SigningFolder, version: Int?) throws(Problem) -> [UInt8] {
        do {
            guard let version = try version ?? folder.rootVersions().last else {
                throw Problem(kind: .notFound, detail: "the signing folder holds no root metadata")
            }
            let url = folder.rootFile(version: version)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw Problem(kind: .notFound, detail: "no root metadata of version \(version)")
            }
            return Array(try Data(contentsOf: url))
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(kind: .fileSystem, detail: "cannot read the signing folder's root metadata: \(error)")
        }
    }

    /// `GET /v1/tuf/targets/{sha256}.{name}`: a target of the kept targets metadata, by the
    /// SHA-256 that names it under consistent snapshots; `candidate/…` for a rollout's candidate.
    /// The bytes are the hub's kept version's, checked against the target's length and hash.
    func tufTarget(folder: String, context: BasicRequestContext) throws(Problem) -> Response {
        let path = folder + (context.parameters.get("file") ?? "")
        guard let (name, target) = try signingRepository().files?.targets[path],
            case .object(let custom)? = target.custom, case .string(let etag)? = custom["etag"],
            let snapshot = specSet.hub.snapshot(version: etag), let bytes = TUFTargets.bytes(of: name, in: snapshot),
            target.matches(bytes.readableBytesView)
        else {
            throw Problem(kind: .notFound, detail: "no target \(path) in the versions this daemon keeps")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: name.hasSuffix(".css") ? "text/css; charset=utf-8" : "application/json",
                .cacheControl: Self.immutable,
            ],
            body: .init(byteBuffer: bytes))
    }

    /// `GET /v1/tuf/status`: the signing state Livery Studio shows (``TUFStatus``).
    func tufStatus() throws(Problem) -> Response {
        let repository = try signingRepository()
        do {
            return JSONBody.response(try TUFStatus(repository), headers: [.cacheControl: "no-store"])
        } catch {
            throw Problem(kind: .fileSystem, detail: "cannot read the signing state: \(error)")
        }
    }
}
