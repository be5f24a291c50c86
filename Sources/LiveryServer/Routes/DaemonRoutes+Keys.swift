import Foundation
import Hummingbird

extension DaemonRoutes {
    /// The keys: `POST /v1/keys` adds one and answers it, the one time it is shown; `GET
    /// /v1/keys` lists them (never a key, nor its hash); `DELETE /v1/keys/{name}` revokes one.
    /// All need `admin`. `GET /v1/keys/self` tells any key what it may do.
    static var keyRoutes: [Route] {
        [
            Route(.post, "/v1/keys", scope: .admin, daemonWide: true) { routes, request, _ in
                try await routes.addKey(request)
            },
            Route(.get, "/v1/keys", scope: .admin, daemonWide: true) { routes, _, _ in routes.listKeys() },
            Route(.get, "/v1/keys/\(KeyKeeper.selfName)", scope: nil, daemonWide: true) { routes, request, _ in
                try routes.selfKey(request)
            },
            Route(.delete, "/v1/keys/{name}", scope: .admin, daemonWide: true) { routes, _, context in
                try await routes.revokeKey(context.parameters.get("name") ?? "")
            },
        ]
    }

    private func addKey(_ request: Request) async throws(Problem) -> Response {
        let body = try await collectBody(request)
        let new: KeyGrant
        do {
            new = try JSONDecoder().decode(KeyGrant.self, from: body)
        } catch {
            throw .badRequest(
                #"the body must be JSON {"name": "ci", "scopes": ["push"], "environments": ["staging"] or ["*"]} "#
                    + "with scopes among \(KeyScope.allCases.map(\.rawValue).joined(separator: ", ")): \(error)")
        }
        let grant = KeyGrant(name: new.name, scopes: new.scopes, environments: new.environments)
        do throws(KeyError) {
            let key = try await keys.add(grant)
            return JSONBody.response(
                IssuedKey(grant: grant, key: key), status: .created, headers: [.cacheControl: "no-store"])
        } catch {
            throw error.problem
        }
    }

    /// The keys given on the command line (without dates), then the stored ones.
    private func listKeys() -> Response {
        let fixed = keys.ring.fixedGrants.map {
            KeyListing(name: $0.name, scopes: $0.scopes, environments: $0.environments, created: nil, lastUsed: nil)
        }
        return JSONBody.response(
            ["keys": fixed + keys.ring.records.map(\.listed)], headers: [.cacheControl: "no-store"])
    }

    /// What `GET /v1/keys/self` answers: the calling key's grant; without a key, what anyone
    /// may do (`name` null; `read` where reads are open).
    private struct SelfKey: Encodable {
        var name: String?
        var scopes: [KeyScope]
        var environments: [String]
    }

    /// `GET /v1/keys/self`: what the calling key may do, so that a page can show the controls it
    /// cannot use as such. A key the daemon does not know is 401.
    private func selfKey(_ request: Request) throws(Problem) -> Response {
        let authorization = request.headers[.authorization]
        let answer: SelfKey
        if let grant = keys.ring.grant(of: authorization) {
            answer = SelfKey(name: grant.name, scopes: grant.scopes, environments: grant.environments)
        } else if authorization == nil {
            answer = SelfKey(
                name: nil, scopes: access.readsNeedKey ? [] : [.read], environments: [KeyGrant.everyEnvironment])
        } else {
            throw .unauthorized(
                scope: .read, environment: access.environment(ofPath: request.uri.path),
                readsNeedKey: access.readsNeedKey)
        }
        return JSONBody.response(answer, headers: [.cacheControl: "no-store"])
    }

    private func revokeKey(_ name: String) async throws(Problem) -> Response {
        do throws(KeyError) {
            try await keys.revoke(name)
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        } catch {
            throw error.problem
        }
    }
}

extension KeyError {
    /// The answer to a refused key change.
    var problem: Problem {
        switch self {
        case .invalid(let message): .badRequest(message)
        case .exists(let name):
            Problem(kind: .keyExists, detail: "a key named '\(name)' exists; revoke it first or choose another name")
        case .unknown(let name): Problem(kind: .unknownKey, detail: "there is no key named '\(name)'")
        case .fixed(let name):
            Problem(
                kind: .fixedKey,
                detail:
                    "'\(name)' is the key the daemon was started with (--token-file, --read-token-file); change it by restarting with another file"
            )
        case .reserved(let name):
            Problem(
                kind: .reservedKeyName,
                detail:
                    "no key may be named '\(name)': /v1/keys/\(name) answers what the calling key may do; choose another name"
            )
        case .store(let error): error.problem
        }
    }
}
