import Foundation
import Hummingbird

extension DaemonRoutes {
    /// `GET /v1/specs`: `{"files": [{"path", "etag", "size"}]}`, sorted by path, with a strong
    /// ETag of the listing; 304 on a matching `If-None-Match`.
    func listFiles(_ request: Request) async -> Response {
        do {
            let body = JSONBody.encode(FileList(files: try await store.list()))
            let etag = EntityTag(of: body.readableBytesView)
            var headers = HTTPFields()
            headers[.eTag] = etag.description
            headers[.cacheControl] = "no-cache"
            if EntityTagCondition(headerValues: request.headers[values: .ifNoneMatch])?.matchesWeakly(etag) == true {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        } catch {
            return error.problem.response()
        }
    }

    /// `GET /v1/specs/{path}`: the file's source with its ETag; 304 on a matching `If-None-Match`.
    func getFile(_ request: Request) async -> Response {
        guard let rawPath = specPath(of: request) else { return badEncoding() }
        do {
            let file = try await store.file(rawPath)
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
        } catch {
            return error.problem.response()
        }
    }

    /// `PUT /v1/specs/{path}`: validates the folder as it would be with this file, then writes
    /// it atomically. 201 (created) or 200 (replaced) with the file's new ETag.
    func putFile(_ request: Request) async -> Response {
        if let refusal = authorize(request) { return refusal }
        guard let rawPath = specPath(of: request) else { return badEncoding() }
        let data: Data
        do {
            data = try await collectBody(request)
        } catch {
            return error.response()
        }
        do {
            let ifMatch = EntityTagCondition(headerValues: request.headers[values: .ifMatch])
            let result = try await changeFetchingIncludes { remote throws(PushError) in
                try await store.put(rawPath, data: data, ifMatch: ifMatch, remote: remote)
            }
            metrics.pushes.increment()
            logger.notice("spec pushed", metadata: ["path": "\(result.path)", "bytes": "\(data.count)", "created": "\(result.created)"])
            let etag = result.etag?.description ?? ""
            var headers = HTTPFields()
            headers[.eTag] = etag
            if result.created { headers[.location] = "/v1/specs/" + result.path }
            return JSONBody.response(
                SpecFileEntry(path: result.path, etag: etag, size: data.count),
                status: result.created ? .created : .ok, headers: headers)
        } catch {
            return refused(error, path: rawPath)
        }
    }

    /// `DELETE /v1/specs/{path}`: removes the file if the folder validates without it. 204.
    func deleteFile(_ request: Request) async -> Response {
        if let refusal = authorize(request) { return refusal }
        guard let rawPath = specPath(of: request) else { return badEncoding() }
        do {
            let ifMatch = EntityTagCondition(headerValues: request.headers[values: .ifMatch])
            let result = try await changeFetchingIncludes { remote throws(PushError) in
                try await store.delete(rawPath, ifMatch: ifMatch, remote: remote)
            }
            metrics.pushes.increment()
            logger.notice("spec deleted", metadata: ["path": "\(result.path)"])
            return Response(status: .noContent)
        } catch {
            return refused(error, path: rawPath)
        }
    }

    private func refused(_ error: PushError, path: String) -> Response {
        if case .invalid = error { metrics.rejectedSpecs(source: "push").increment() }
        logger.warning("push refused", metadata: ["path": "\(path)", "reason": "\(error.problem.detail)"])
        return error.problem.response()
    }

    /// 401 unless the request carries the token; then 403 if the daemon is read-only. In that
    /// order, so that only a holder of the token learns that writes are switched off.
    private func authorize(_ request: Request) -> Response? {
        guard !token.authorizes(request.headers[.authorization]) else {
            guard configuration.readOnly else { return nil }
            return Problem(
                kind: "read-only", title: "Read-only", status: .forbidden,
                detail: "this daemon was started with --read-only: it serves the specs folder and accepts no writes"
            ).response()
        }
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = #"Bearer realm="livery""#
        return Problem(
            kind: "unauthorized", title: "Unauthorized", status: .unauthorized,
            detail: "writes need the header 'Authorization: Bearer <token>' with the daemon's push token"
        ).response(headers: headers)
    }

    private func badEncoding() -> Response {
        Problem(
            kind: "forbidden-path", title: "Forbidden spec path", status: .badRequest,
            detail: "the path is not valid percent-encoded UTF-8"
        ).response()
    }

    /// The body, refused with 413 as soon as it is known to exceed the limit: from
    /// `Content-Length` before reading anything, or while collecting a chunked body.
    private func collectBody(_ request: Request) async throws(Problem) -> Data {
        let limit = configuration.maxBodyBytes
        let tooLarge = Problem(
            kind: "body-too-large", title: "Body too large", status: .contentTooLarge,
            detail: "the body is larger than the limit of \(limit) bytes")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw tooLarge
        }
        var data = Data()
        do {
            for try await buffer in request.body {
                guard data.count + buffer.readableBytes <= limit else { throw tooLarge }
                data.append(contentsOf: buffer.readableBytesView)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(kind: "bad-body", title: "Bad body", status: .badRequest, detail: "the body could not be read: \(error)")
        }
        return data
    }
}

/// The body of `GET /v1/specs`.
struct FileList: Codable {
    var files: [SpecFileEntry]
}
