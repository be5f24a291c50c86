import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging
import Prometheus

extension DaemonRoutes {
    /// `GET /v1/specs`: `{"files": [{"path", "etag", "size"}]}`, sorted by path, with a strong
    /// ETag of the listing; 304 on a matching `If-None-Match`. Made once per store version (see
    /// ``listings``): an edit on disk shows once the watcher has loaded it.
    func listFiles(_ request: Request) async throws(Problem) -> Response {
        // Read before the store is, so a change during the read leaves a key no later request asks for.
        let version = ListingVersion(loads: hub.generation, commits: writer.commits.value)
        do throws(StoreError) {
            let listing = try await listings.entry(for: version) { () async throws(StoreError) -> ByteBuffer in
                JSONBody.encode(FileList(files: try await writer.store.list()))
            }
            var headers = HTTPFields()
            headers[.eTag] = listing.etag.description
            headers[.cacheControl] = "no-cache"
            if EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch])?.matchesWeakly(listing.etag)
                == true
            {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: listing.body))
        } catch {
            throw problem(error, for: request)
        }
    }

    /// `GET /v1/specs/{path}`: the file's source with its ETag; 304 on a matching `If-None-Match`.
    func getFile(_ request: Request) async throws(Problem) -> Response {
        let file: (path: String, data: Data, format: SpecFormat)
        let rawPath = try specPathOrThrow(request)
        do throws(StoreError) {
            file = try await writer.store.file(rawPath)
        } catch {
            throw problem(error, for: request)
        }
        let etag = EntityTag(of: file.data)
        var headers = HTTPFields()
        headers[.eTag] = etag.description
        headers[.cacheControl] = "no-cache"
        if let condition = EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch]),
            condition.matchesWeakly(etag)
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.format.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
    }

    /// `PUT /v1/specs/{path}`: validates the whole set as it would be with this file, then
    /// writes it atomically. 201 (created) or 200 (replaced) with the file's new ETag;
    /// `?dryRun=true` answers the same and writes nothing.
    /// With `?rollout=10%` (and `&replace=true`) the file is a rollout's candidate instead, as
    /// for a publish with a `rollout` field: validated the same way, the stable version unchanged.
    func putFile(_ request: Request) async throws(Problem) -> Response {
        let rawPath = specPath(of: request) ?? ""
        let path: String
        let data: Data
        do throws(Problem) {
            path = try validatedPath(try specPathOrThrow(request))
            data = try await collectBody(request)
        } catch {
            throw refused(error, path: rawPath)
        }
        if let text = request.uri.queryParameters["rollout"].map(String.init) {
            guard let share = RolloutShare(query: text) else {
                throw refused(
                    Problem.badRequest(
                        "?rollout= is a percentage from 0 to 100 with at most two decimals (10%, 12.5), not \(text)"),
                    path: rawPath)
            }
            let replace = request.uri.queryParameters["replace"] == "true"
            var change = ChangeSet(
                files: [path: data], message: "PUT /v1/specs/\(path)", author: author(of: request),
                signedTargets: request.headers[OfferedTargets.field])
            let precondition = filePrecondition(request, path: path)
            if let held = try await held(
                &change, action: .rollout, precondition: precondition, rollout: (share.basisPoints, replace),
                place: rawPath, request)
            {
                return held
            }
            return try await answer(
                startingRollout: change, share: share, replace: replace, precondition: precondition, place: rawPath,
                request)
        }
        var change = ChangeSet(
            files: [path: data], message: "PUT /v1/specs/\(path)", author: author(of: request),
            signedTargets: request.headers[OfferedTargets.field])
        let precondition = filePrecondition(request, path: path)
        if let held = try await held(&change, action: .publish, precondition: precondition, place: rawPath, request) {
            return held
        }
        do throws(StoreError) {
            let result = try await writer.write(change, precondition: precondition, dryRun: isDryRun(request))
            logWrite("spec pushed", result, request: request)
            let etag = result.fileETags[path]?.description ?? ""
            let created = result.created.contains(path)
            var headers = HTTPFields()
            headers[.eTag] = etag
            if created {
                // At the prefix the request came by: the default environment's or its own.
                let environment = EnvironmentPath.split(request.uri.path).environment
                headers[.location] =
                    (environment.map { EnvironmentPath.path("/v1/specs/", environment: String($0)) } ?? "/v1/specs/")
                    + path
            }
            return JSONBody.response(
                SpecFileEntry(path: path, etag: etag, size: data.count), status: created ? .created : .ok,
                headers: headers)
        } catch {
            throw refused(error, path: rawPath)
        }
    }

    /// `DELETE /v1/specs/{path}`: removes the file if the set validates without it. 204.
    func deleteFile(_ request: Request) async throws(Problem) -> Response {
        let rawPath = specPath(of: request) ?? ""
        let path: String
        do throws(Problem) {
            path = try validatedPath(try specPathOrThrow(request))
        } catch {
            throw refused(error, path: rawPath)
        }
        var change = ChangeSet(
            files: [path: Data?.none], message: "DELETE /v1/specs/\(path)", author: author(of: request),
            signedTargets: request.headers[OfferedTargets.field])
        let precondition = filePrecondition(request, path: path)
        if let held = try await held(&change, action: .publish, precondition: precondition, place: rawPath, request) {
            return held
        }
        do throws(StoreError) {
            let result = try await writer.write(change, precondition: precondition, dryRun: isDryRun(request))
            logWrite("spec deleted", result, request: request)
            return Response(status: .noContent)
        } catch {
            throw refused(error, path: rawPath)
        }
    }

    /// Counts and logs a write the store refused, and returns its problem.
    func refused(_ error: StoreError, path: String) -> Problem {
        if case .invalid = error { specSet.metrics.rejectedSpecs(source: "push").increment() }
        return refused(error.problem, path: path)
    }

    /// Logs a refused write, and returns its problem.
    func refused(_ problem: Problem, path: String) -> Problem {
        logger.warning("push refused", metadata: ["livery.path": "\(path)", "livery.reason": "\(problem.detail)"])
        return problem
    }

    /// Counts and logs a write that went through (or would have, for a dry run), naming the key
    /// that made it.
    func logWrite(_ message: Logger.Message, _ result: SpecWriter.Result, request: Request) {
        guard !isDryRun(request) else { return }
        specSet.metrics.pushes.increment()
        logger.notice(
            message,
            metadata: [
                "livery.paths": "\(result.paths)", "livery.revision": "\(result.revision.map(String.init) ?? "-")",
                "livery.by": "\(author(of: request))",
            ])
    }

    /// Who makes the request's write: the name of the key it carries.
    func author(of request: Request) -> String {
        keys.ring.grant(of: request.headers[.authorization])?.name ?? "anonymous"
    }

    /// Whether the request asks only for validation (`?dryRun=true`).
    func isDryRun(_ request: Request) -> Bool {
        request.uri.queryParameters.get("dryRun") == "true"
    }

    private func filePrecondition(_ request: Request, path: String) -> SpecWriter.Precondition {
        EntityTagCondition(headerValues: request.headers[values: .ifMatch]).map { .file(path, $0) } ?? .none
    }

    private func specPathOrThrow(_ request: Request) throws(Problem) -> String {
        guard let path = specPath(of: request) else { throw .badRequest("the path is not valid percent-encoded UTF-8") }
        return path
    }

    /// `rawPath` as the path rules normalise it, or the rule it breaks.
    func validatedPath(_ rawPath: String) throws(Problem) -> String {
        do {
            return try SpecPath.validate(rawPath)
        } catch {
            throw StoreError.forbiddenPath(error).problem
        }
    }

    /// The body, refused with 413 as soon as it is known to exceed the daemon's limit
    /// (``DaemonConfiguration/maxBodyBytes``).
    func collectBody(_ request: Request) async throws(Problem) -> Data {
        try await Self.collectBody(request, limit: configuration.maxBodyBytes)
    }

    /// The body, refused with 413 as soon as it is known to exceed `limit` bytes: from
    /// `Content-Length` before reading anything, or while collecting a chunked body.
    static func collectBody(_ request: Request, limit: Int) async throws(Problem) -> Data {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw .bodyTooLarge(limit)
        }
        var data = Data()
        do {
            for try await buffer in request.body {
                guard data.count + buffer.readableBytes <= limit else { throw Problem.bodyTooLarge(limit) }
                data.append(contentsOf: buffer.readableBytesView)
            }
        } catch let error as Problem {
            throw error
        } catch {
            throw .badRequest("the body could not be read: \(error)")
        }
        return data
    }
}

/// The body of `GET /v1/specs`.
struct FileList: Codable {
    var files: [SpecFileEntry]
}
