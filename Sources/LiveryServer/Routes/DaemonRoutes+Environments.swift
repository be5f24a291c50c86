import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Logging

extension DaemonRoutes {
    /// `GET` and `POST /v1/environments`, `DELETE /v1/environments/{environment}`.
    static var environmentRoutes: [Route] {
        [
            Route(.get, EnvironmentPath.collection, scope: .read) { shared, _, _ in shared.listEnvironments() },
            Route(.post, EnvironmentPath.collection, scope: .admin, writes: true) { shared, request, _ in
                try await shared.createEnvironment(request)
            },
            Route(.delete, EnvironmentPath.collection + "/{\(EnvironmentPath.parameter)}", scope: .admin, writes: true)
            {
                shared, _, context in
                try await shared.deleteEnvironment(context.parameters.get(EnvironmentPath.parameter) ?? "")
            },
        ]
    }
}

extension DaemonRoutes.Shared {
    /// `GET /v1/environments`: each environment with its version and rollout, and which one the
    /// routes without an environment address.
    func listEnvironments() -> Response {
        let list = EnvironmentList(
            defaultEnvironment: environments.defaultSet?.name,
            environments: environments.all.map { set in
                EnvironmentSummary(
                    name: set.name, etag: set.hub.snapshot?.etag.description,
                    files: set.hub.snapshot?.files.count ?? 0, errors: set.hub.errors.count,
                    rollout: set.rollouts.record?.rollout)
            })
        return JSONBody.response(list, headers: [.cacheControl: "no-store"])
    }

    /// `POST /v1/environments` `{"name": "staging", "from": "production", "approvals": 2}`:
    /// creates an empty environment, or one holding a copy of `from`'s current files, in one
    /// atomic write; with `approvals`, protected.
    func createEnvironment(_ request: Request) async throws(Problem) -> Response {
        let body = try await DaemonRoutes.collectBody(request, limit: configuration.maxBodyBytes)
        let creation: EnvironmentCreation
        do {
            creation = try JSONDecoder().decode(EnvironmentCreation.self, from: body)
        } catch {
            throw .badRequest(
                #"the body must be JSON {"name": "staging", "from": "production"} ("from" optional): \#(error)"#)
        }
        guard EnvironmentPath.isValidName(creation.name) else {
            throw .badRequest(
                "'\(creation.name)' is not an environment name: a lowercase letter, then up to 62 lowercase letters, digits or '-'"
            )
        }
        var files = SpecSourceSet()
        if let from = creation.from {
            let source = try environments.resolve(from)
            do throws(StoreError) {
                files = try await source.store.read().sources
            } catch {
                throw error.problem
            }
        }
        if let approvals = creation.approvals, !(1...Protection.maxApprovals).contains(approvals) {
            throw .badRequest("approvals is a whole number from 1 to \(Protection.maxApprovals), not \(approvals)")
        }
        try await environments.space.create(creation.name, files: files)
        let set = environments.add(creation.name)
        if let approvals = creation.approvals {
            try await set.changes.protect(
                approvals: approvals, by: keys.ring.grant(of: request.headers[.authorization])?.name ?? "anonymous")
        }
        logger.notice(
            "environment created",
            metadata: ["livery.environment": "\(creation.name)", "livery.from": "\(creation.from ?? "")"])
        return JSONBody.response(
            EnvironmentSummary(name: set.name, etag: nil, files: files.files.count, errors: 0, rollout: nil),
            status: .created,
            headers: [.location: EnvironmentPath.collection + "/" + set.name, .cacheControl: "no-store"])
    }

    /// `DELETE /v1/environments/{environment}`: removes the environment and its files; never the
    /// default one.
    func deleteEnvironment(_ name: String) async throws(Problem) -> Response {
        _ = try environments.resolve(name)
        guard name != environments.defaultName else {
            throw Problem(
                kind: .environmentConflict,
                detail:
                    "'\(name)' is the default environment, which the routes without an environment address; it cannot be deleted"
            )
        }
        try await environments.space.delete(name)
        environments.remove(name)
        logger.notice("environment deleted", metadata: ["livery.environment": "\(name)"])
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}

/// The body of `GET /v1/environments`.
struct EnvironmentList: Codable {
    /// The environment the routes without one address, if the daemon has it.
    var defaultEnvironment: String?
    var environments: [EnvironmentSummary]
}

/// One environment in `GET /v1/environments`.
struct EnvironmentSummary: Codable {
    var name: String
    /// Its current bundle's ETag; absent before its first bundle.
    var etag: String?
    var files: Int
    /// How many errors keep its files from loading (the last good bundle is still served).
    var errors: Int
    /// Its last rollout (running, aborted or completed).
    var rollout: Rollout?
}

/// The body of `POST /v1/environments`.
struct EnvironmentCreation: Codable {
    var name: String
    /// The environment whose current files the new one starts with; empty without.
    var from: String?
    /// Protects it from the start: its writes need this many approvals (``ChangeBook``).
    var approvals: Int?
}
