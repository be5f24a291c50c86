import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging

extension DaemonRoutes {
    /// `POST /v1/specs`: an atomic multi-file publish. The body is
    /// `{"files": {"a.yaml": "…", "old.yaml": null}, "message": "…"}` (null removes a file);
    /// `If-Match` with the bundle's ETag makes it depend on the specs not having changed. All
    /// files land together or none do. `?dryRun=true` validates and writes nothing.
    /// With `"rollout": "10%"` the set is a rollout's candidate instead (``RolloutKeeper``):
    /// validated the same way, served to that share of clients, the stable version unchanged;
    /// `"replace": true` replaces a running rollout's candidate.
    func publish(_ request: Request) async throws(Problem) -> Response {
        var change: ChangeSet
        let publish: PublishRequest
        do throws(Problem) {
            (change, publish) = try await changeSet(of: request)
        } catch {
            throw refused(error, path: "POST /v1/specs")
        }
        let precondition = bundlePrecondition(request)
        let rollout = publish.rollout.map { (basisPoints: $0.basisPoints, replace: publish.replace ?? false) }
        if let held = try await held(
            &change, action: rollout == nil ? .publish : .rollout, precondition: precondition, rollout: rollout,
            place: "POST /v1/specs", request)
        {
            return held
        }
        if let share = publish.rollout {
            return try await answer(
                startingRollout: change, share: share, replace: publish.replace ?? false, precondition: precondition,
                place: "POST /v1/specs", request)
        }
        do throws(StoreError) {
            return try await answer(publishing: change, request)
        } catch {
            throw refused(error, path: "POST /v1/specs")
        }
    }

    /// The files of a publish body, `{"files": {"a.yaml": "…", "old.yaml": null}, "message": "…"}`,
    /// their paths checked.
    func changeSet(of request: Request) async throws(Problem) -> (ChangeSet, PublishRequest) {
        let body = try await collectBody(request)
        let publish: PublishRequest
        do {
            publish = try JSONDecoder().decode(PublishRequest.self, from: body)
        } catch {
            throw Problem.badRequest(
                #"the body must be JSON {"files": {"path.yaml": "content" or null, …}, "message": "…"}: "#
                    + Self.describe(error))
        }
        guard !publish.files.isEmpty else { throw Problem.badRequest(#""files" names no file"#) }
        var files: [String: Data?] = [:]
        for (rawPath, content) in publish.files {
            files[try validatedPath(rawPath)] = .some(content.map { Data($0.utf8) })
        }
        let change = ChangeSet(
            files: files, message: publish.message ?? "", author: author(of: request),
            signedTargets: request.headers[OfferedTargets.field])
        return (change, publish)
    }

    /// Writes `change` with the request's bundle `If-Match` and dry-run flag, and answers 200
    /// with a ``PublishResult``.
    func answer(publishing change: ChangeSet, _ request: Request) async throws(StoreError) -> Response {
        var change = change
        change.signedTargets = request.headers[OfferedTargets.field]
        let dryRun = isDryRun(request)
        let result = try await writer.write(change, precondition: bundlePrecondition(request), dryRun: dryRun)
        logWrite("specs published", result, request: request)
        let answer = PublishResult(
            etag: result.bundleETag.description, revision: result.revision, paths: result.paths,
            created: result.created.sorted(), dryRun: dryRun)
        return JSONBody.response(answer, headers: [.cacheControl: "no-store"])
    }

    /// The request's `If-Match` on the bundle's ETag, if it has one.
    func bundlePrecondition(_ request: Request) -> SpecWriter.Precondition {
        EntityTagCondition(headerValues: request.headers[values: .ifMatch]).map { .bundle($0) } ?? .none
    }

    /// A decoding error in a sentence, with the place in the JSON where it went wrong.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let place = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (place.isEmpty ? "" : "at \(place): ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// The body of `POST /v1/specs`.
struct PublishRequest: Decodable {
    /// New contents by path; `nil` removes the file.
    var files: [String: String?]
    /// Why; recorded in the history.
    var message: String?
    /// Start a rollout of the set to this share instead of publishing it.
    var rollout: RolloutShare?
    /// Replace a running rollout's candidate.
    var replace: Bool?
}

/// The answer to a publish (and to a restore).
package struct PublishResult: Codable, Hashable, Sendable {
    /// The ETag of the bundle the published files make.
    public var etag: String
    /// The store revision of the publish (etcd's, or the folder history's); absent for a dry run.
    public var revision: Int64?
    /// The paths written or removed.
    public var paths: [String]
    /// The paths that did not exist before.
    public var created: [String]
    /// Whether nothing was written (`?dryRun=true`).
    public var dryRun: Bool

    /// Creates a result.
    public init(etag: String, revision: Int64?, paths: [String], created: [String], dryRun: Bool) {
        self.etag = etag
        self.revision = revision
        self.paths = paths
        self.created = created
        self.dryRun = dryRun
    }
}
