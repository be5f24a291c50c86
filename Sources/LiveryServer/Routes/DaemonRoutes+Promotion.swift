import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging

extension DaemonRoutes {
    /// `POST …/promotions` and `GET …/promotions/preview`, served for each environment (the
    /// target) like every spec-set route.
    static var promotionRoutes: [Route] {
        [
            Route(.post, "/v1/promotions", scope: .promote) { routes, request, _ in try await routes.promote(request) },
            Route(.get, "/v1/promotions/preview") { routes, request, _ in try await routes.promotionPreview(request) },
        ]
    }

    /// `POST /v1/environments/{to}/promotions` `{"from", "revision" or "etag", "message",
    /// "rollout"}`: this environment's files become exactly `from`'s at that version (its newest
    /// revision by default) in one validated publish, under the request's `If-Match` on this
    /// environment's bundle; with `rollout`, a staged rollout of them starts here instead.
    /// Answers as `POST /v1/specs` (or, with a rollout, as `GET /v1/rollout`).
    func promote(_ request: Request) async throws(Problem) -> Response {
        let place = "POST promotions"
        let data = try await collectBody(request)
        let body: PromotionRequest
        do {
            body = try JSONDecoder().decode(PromotionRequest.self, from: data)
        } catch {
            throw refused(
                Problem.badRequest(
                    #"the body must be JSON {"from": "staging", "revision": 12 or "etag": "…", "message": "…", "rollout": "10%"} ("from" alone will do): \#(error)"#
                ), path: place)
        }
        let promotion = try self.promotion(from: body.from, place: place)
        let source = promotion.sourceName
        let version = try refusing(path: place) { () throws(Problem) in
            try Self.version(revision: body.revision, etag: body.etag)
        }
        let precondition = bundlePrecondition(request)
        var message = body.message ?? ""
        // What a protected environment holds: the exact files that make it the source's version.
        var change: ChangeSet
        do throws(StoreError) {
            let origin = try await promotion.origin(version)
            change = try await writer.change(
                toMatch: origin.sources, message: Promotion.message(message, from: source, at: origin.revision),
                author: author(of: request))
            change.signedTargets = request.headers[OfferedTargets.field]
        } catch {
            throw refused(error, path: place)
        }
        switch try await approval(
            of: change, action: body.rollout == nil ? .publish : .rollout, precondition: precondition,
            rollout: body.rollout.map { ($0.basisPoints, false) }, place: place, request)
        {
        case .held(let response): return response
        case .bypassed: message = ChangeRequest.bypassed(message)
        case .open: break
        }
        let result: SpecWriter.Result
        do throws(RolloutError) {
            result = try await promotion.promote(
                version, message: message, author: author(of: request), precondition: precondition,
                rollout: body.rollout.map { (rollouts, $0.basisPoints) },
                signedTargets: request.headers[OfferedTargets.field])
        } catch {
            throw refused(error.problem, path: place)
        }
        if body.rollout != nil { return try rolloutStatus() }
        logWrite("specs promoted", result, request: request)
        return JSONBody.response(
            PublishResult(
                etag: result.bundleETag.description, revision: result.revision, paths: result.paths,
                created: result.created.sorted(), dryRun: false),
            headers: [.cacheControl: "no-store"])
    }

    /// `GET /v1/environments/{to}/promotions/preview?from=ENV[&revision=N]`: what promoting
    /// would change here (``PromotionPreview``).
    func promotionPreview(_ request: Request) async throws(Problem) -> Response {
        let place = "GET promotions/preview"
        let query = request.uri.queryParameters
        let promotion = try self.promotion(from: query.get("from").map { String($0) } ?? "", place: place)
        let revision = try query.get("revision").map { text throws(Problem) in
            guard let revision = Int64(text), revision > 0 else {
                throw refused(
                    Problem.badRequest("revision must be a positive whole number, not '\(text)'"), path: place)
            }
            return revision
        }
        do throws(StoreError) {
            let preview = try await promotion.preview(
                try await promotion.origin(revision.map { .revision($0) } ?? .current))
            return JSONBody.response(preview, headers: [.cacheControl: "no-store"])
        } catch {
            throw refused(error, path: place)
        }
    }

    /// A scheduled promotion's source (``ScheduleRequest``'s `from` at its `revision` or `etag`,
    /// read as `POST …/promotions` reads it), checked to load here as that route checks it, and
    /// kept in `change` with every file of it: what runs at its time is what was planned and
    /// approved, whatever the source holds by then. Its message says where the files come from
    /// from now on, so that a change request and the history read as an immediate promotion's.
    func planPromotion(
        _ asked: ScheduleRequest, into change: inout ScheduledChange, place: String
    ) async throws(Problem) {
        let promotion = try self.promotion(from: asked.from ?? "", place: place)
        let version = try refusing(path: place) { () throws(Problem) in
            try Self.version(revision: asked.revision, etag: asked.etag)
        }
        do throws(StoreError) {
            let origin = try await promotion.origin(version)
            _ = try await promotion.write(
                origin, message: change.message, author: change.by, precondition: .none, dryRun: true)
            change.message = Promotion.message(change.message, from: promotion.sourceName, at: origin.revision)
            change.from = promotion.sourceName
            change.revision = origin.revision
            change.files = origin.sources.files.mapValues { .some($0.data) }
            change.paths = origin.sources.sortedPaths
        } catch {
            throw refused(error, path: place)
        }
    }

    /// The promotion from the environment `name` to this one.
    private func promotion(from name: String, place: String) throws(Problem) -> Promotion {
        guard !name.isEmpty else { throw refused(Problem.badRequest(#"name the source: "from""#), path: place) }
        let source = try environments.resolve(name)
        guard source.name != specSet.name else {
            throw refused(Problem.badRequest("'\(name)' is this environment: promote from another one"), path: place)
        }
        return Promotion(sourceName: source.name, source: source.writer, target: writer)
    }

    /// `body` refused as the route refuses: its problem names `path`.
    private func refusing<T>(path: String, _ body: () throws(Problem) -> T) throws(Problem) -> T {
        do {
            return try body()
        } catch {
            throw refused(error, path: path)
        }
    }

    private static func version(revision: Int64?, etag: String?) throws(Problem) -> Promotion.Version {
        switch (revision, etag) {
        case (let revision?, nil): return .revision(revision)
        case (nil, let etag?): return .etag(EntityTag(opaque: EntityTag.opaque(of: etag)))
        case (nil, nil): return .current
        case (_?, _?): throw Problem.badRequest(#"give "revision" or "etag", not both"#)
        }
    }
}
