import Foundation
import Hummingbird
import Livery

extension DaemonRoutes {
    /// `GET /v1/history?limit=N`: the publishes, newest first (`{"entries": [...]}`); 501 on a
    /// folder, which keeps no history.
    func history(_ request: Request) async throws(Problem) -> Response {
        let limit = request.uri.queryParameters.get("limit").flatMap { Int($0) } ?? 100
        do throws(PushError) {
            guard limit > 0 else { throw PushError.badRequest("limit must be a positive whole number") }
            let entries = try await writer.store.history(limit: limit)
            return JSONBody.response(HistoryList(entries: entries), headers: [.cacheControl: "no-store"])
        } catch {
            throw error.problem
        }
    }

    /// `GET /v1/history/{revision}`: the bundle the specs made at that revision; 410 once etcd
    /// compacted it, 422 if the specs did not validate then.
    func historicBundle(_ context: some RequestContext) async throws(Problem) -> Response {
        do throws(PushError) {
            let sources = try await writer.store.read(atRevision: try revision(context)).sources
            let remote = RemoteIncludes(allowList: configuration.allowedIncludes)
            let spec: Spec
            do {
                spec = try Spec(
                    sources: sources, registry: configuration.registry, limits: configuration.readerLimits,
                    remoteIncludes: remote)
            } catch {
                throw PushError.invalid(
                    Spec.validate(
                        sources, registry: configuration.registry, limits: configuration.readerLimits,
                        remoteIncludes: remote))
            }
            let json = spec.bundleJSON
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json", .eTag: EntityTag(of: json.utf8).description,
                    .cacheControl: "no-cache",
                ],
                body: .init(byteBuffer: ByteBuffer(string: json)))
        } catch {
            throw error.problem
        }
    }

    /// `POST /v1/history/{revision}/restore`: publishes the specs as they were at that revision
    /// again, as a new revision, validated like any write; `If-Match` and `?dryRun=true` as for
    /// `POST /v1/specs`.
    func restore(_ request: Request, context: some RequestContext) async throws(Problem) -> Response {
        do throws(PushError) {
            let revision = try revision(context)
            let then = try await writer.store.read(atRevision: revision).sources
            let change = try await writer.change(toMatch: then, message: "restore revision \(revision)")
            return try await answer(publishing: change, request)
        } catch {
            throw refused(error, path: "restore")
        }
    }

    private func revision(_ context: some RequestContext) throws(PushError) -> Int64 {
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
