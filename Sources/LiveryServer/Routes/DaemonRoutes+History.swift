import Foundation
import Hummingbird
import Livery

extension DaemonRoutes {
    /// `GET /v1/history?limit=N`: the publishes, newest first (`{"entries": [...]}`).
    func history(_ request: Request) async throws(Problem) -> Response {
        let given = request.uri.queryParameters.get("limit")
        let limit = given.map { Int($0) ?? 0 } ?? 100
        guard limit > 0 else { throw .badRequest("limit must be a positive whole number, found '\(given ?? "")'") }
        do throws(StoreError) {
            let entries = try await writer.store.history(limit: limit)
            return JSONBody.response(HistoryList(entries: entries), headers: [.cacheControl: "no-store"])
        } catch {
            throw problem(error, for: request)
        }
    }

    /// `GET /v1/history/{revision}`: the bundle the specs made at that revision; 410 once etcd
    /// compacted it or a folder's history pruned it, 422 if the specs did not validate then. A bundle read once is kept per
    /// revision, until a read at a revision finds etcd compacted it.
    func historicBundle(_ request: Request, context: some RequestContext) async throws(Problem) -> Response {
        let revision = try self.revision(context)
        let bundle: VersionedCache<Int64>.Entry
        do throws(StoreError) {
            bundle = try await historicBundles.entry(for: revision) { () async throws(StoreError) -> ByteBuffer in
                ByteBuffer(string: try await bundleJSON(atRevision: revision))
            }
        } catch {
            throw problem(error, for: request)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .eTag: bundle.etag.description, .cacheControl: "no-cache"],
            body: .init(byteBuffer: bundle.body))
    }

    /// The bundle the store's files made at `revision`, or why they made none.
    private func bundleJSON(atRevision revision: Int64) async throws(StoreError) -> String {
        let sources = try await writer.store.read(atRevision: revision).sources
        let remote = RemoteIncludes(allowList: configuration.allowedIncludes)
        do {
            return try Spec(
                sources: sources, registry: configuration.registry, limits: configuration.readerLimits,
                remoteIncludes: remote
            ).bundleJSON
        } catch {
            throw .invalid(
                Spec.validate(
                    sources, registry: configuration.registry, limits: configuration.readerLimits,
                    remoteIncludes: remote))
        }
    }

    /// `POST /v1/history/{revision}/restore`: publishes the specs as they were at that revision
    /// again, as a new revision, validated like any write; `If-Match` and `?dryRun=true` as for
    /// `POST /v1/specs`.
    func restore(_ request: Request, context: some RequestContext) async throws(Problem) -> Response {
        let revision: Int64
        do throws(Problem) {
            revision = try self.revision(context)
        } catch {
            throw refused(error, path: "restore")
        }
        var change: ChangeSet
        do throws(StoreError) {
            let then = try await writer.store.read(atRevision: revision).sources
            change = try await writer.change(
                toMatch: then, message: "restore revision \(revision)", author: author(of: request))
        } catch {
            throw restoreRefused(error)
        }
        if let held = try await held(
            &change, action: .publish, precondition: bundlePrecondition(request), place: "restore", request)
        {
            return held
        }
        do throws(StoreError) {
            return try await answer(publishing: change, request)
        } catch {
            throw restoreRefused(error)
        }
    }

    /// A restore's refusal; kept historic bundles are forgotten when it found its revision gone.
    private func restoreRefused(_ error: StoreError) -> Problem {
        // Kept historic bundles may be of revisions the store no longer has: the next look at
        // one asks the store again, and says it is gone, as the restore just did.
        switch error {
        case .revisionCompacted, .revisionPruned: historicBundles.removeAll()
        default: break
        }
        return refused(error, path: "restore")
    }

    private func revision(_ context: some RequestContext) throws(Problem) -> Int64 {
        guard let text = context.parameters.get("revision"), let revision = Int64(text), revision > 0 else {
            throw .badRequest("the revision must be a positive whole number")
        }
        return revision
    }
}

/// The body of `GET /v1/history`.
struct HistoryList: Codable {
    var entries: [HistoryEntry]
}
