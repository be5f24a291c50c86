import Foundation
import Hummingbird
import Livery

extension DaemonRoutes {
    /// Tokens Studio for Figma's "Generic Versioned Storage" at `/v1/tokens-studio`: `GET` pulls,
    /// `PUT` pushes (read/write), `POST` creates (read/write/create) — see ``TokensStudioStorage``.
    static var tokensStudioRoutes: [Route] {
        [
            Route(.get, TokensStudioStorage.path) { routes, request, _ in try await routes.tokensStudioPull(request) },
            Route(.put, TokensStudioStorage.path, scope: .push) { routes, request, _ in
                try await routes.tokensStudioPush(request)
            },
            Route(.post, TokensStudioStorage.path, scope: .push) { routes, request, _ in
                try await routes.tokensStudioCreate(request)
            },
        ]
    }

    /// `GET`: every token set and the themes, with the bundle's ETag (what `If-Match` on a push
    /// compares with) as the header and as `version`.
    func tokensStudioPull(_ request: Request) async throws(Problem) -> Response {
        guard let snapshot = hub.snapshot else { throw shown(.noBundle(hub.errors), to: request) }
        let state: StoreState
        do throws(StoreError) {
            state = try await writer.store.read()
        } catch {
            throw error.problem
        }
        let payload = try TokensStudioStorage.payload(
            of: state.sources, version: snapshot.etag.description, updatedAt: snapshot.loadedAt)
        var headers = HTTPFields()
        headers[.eTag] = snapshot.etag.description
        headers[.cacheControl] = "no-cache"
        headers[.contentType] = "application/json"
        return Response(
            status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: payload.canonicalJSON)))
    }

    /// `PUT`: the whole storage, published atomically through the one write path (validated,
    /// `If-Match` on the bundle's ETag, history on etcd).
    func tokensStudioPush(_ request: Request) async throws(Problem) -> Response {
        let path = "PUT \(TokensStudioStorage.path)"
        let (change, _) = try await tokensStudioChange(request, path: path)
        return try await publish(change, request, path: path)
    }

    /// `POST`: creates the storage when the specs hold no token set yet (Tokens Studio sends an
    /// empty set named `options`); storage that exists is left as it is. Either way the answer
    /// is the storage, as a pull gives it. The body is checked even where the storage exists:
    /// a malformed create is refused (400), never answered as if it had been taken.
    func tokensStudioCreate(_ request: Request) async throws(Problem) -> Response {
        let path = "POST \(TokensStudioStorage.path)"
        let (change, current) = try await tokensStudioChange(request, path: path)
        if !current.sortedPaths.contains(where: { TokensStudioStorage.setName(of: $0) != nil }) {
            _ = try await publish(change, request, path: path)
        }
        return try await tokensStudioPull(request)
    }

    /// The change the request's storage makes to the specs the store holds now, and those specs.
    private func tokensStudioChange(
        _ request: Request, path: String
    ) async throws(Problem) -> (ChangeSet, SpecSourceSet) {
        let body = try await tokensStudioBody(request)
        let current = try await currentSources(path: path)
        do throws(Problem) {
            return (
                try TokensStudioStorage.change(pushing: body, over: current, author: author(of: request)), current
            )
        } catch {
            throw refused(error, path: path)
        }
    }

    private func publish(_ change: ChangeSet, _ request: Request, path: String) async throws(Problem) -> Response {
        var change = change
        if let held = try await held(
            &change, action: .publish, precondition: bundlePrecondition(request), place: path, request)
        {
            return held
        }
        do throws(StoreError) {
            return try await answer(publishing: change, request)
        } catch {
            throw refused(error, path: path)
        }
    }

    /// The specs the store holds now, which a push replaces the token sets of.
    private func currentSources(path: String) async throws(Problem) -> SpecSourceSet {
        do throws(StoreError) {
            return try await writer.store.read().sources
        } catch {
            throw refused(error, path: path)
        }
    }

    private func tokensStudioBody(_ request: Request) async throws(Problem) -> SpecNode {
        let data = try await collectBody(request)
        do {
            return try SpecNode.parse(data, format: .json, source: "<body>", limits: configuration.readerLimits)
        } catch {
            throw Problem.badRequest("the body is not JSON: \(error)")
        }
    }
}
