import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP

extension DaemonRoutes {
    /// `GET`/`POST …/schedule` and `DELETE …/schedule/{id}`, served for each environment like
    /// every spec-set route: an environment's schedule is its own. Reading it needs `read`;
    /// planning or cancelling a change needs the scopes of the writes it makes
    /// (``ScheduledChange/Kind/scopes``) on the environment, which only the handler knows: the
    /// routes state `read` and the handlers require the rest.
    static var scheduleRoutes: [Route] {
        [
            Route(.get, "/v1/schedule") { routes, _, _ in try await routes.scheduleListing() },
            Route(.post, "/v1/schedule", writes: true) { routes, request, _ in try await routes.planChange(request) },
            Route(.delete, "/v1/schedule/{id}", writes: true) { routes, request, context in
                try await routes.cancelScheduledChange(request, context: context)
            },
        ]
    }

    private var scheduler: Scheduler { specSet.scheduler }

    /// `GET /v1/schedule`: every scheduled change, planned or ended (done, missed, cancelled,
    /// failed, aborted), with its steps.
    func scheduleListing() async throws(Problem) -> Response {
        do throws(ScheduleError) {
            let changes = try await scheduler.list()
            return Self.scheduleResponse(ScheduleListing(now: scheduler.now, changes: changes), status: .ok)
        } catch {
            throw error.problem
        }
    }

    /// `POST /v1/schedule` (``ScheduleRequest``): plans a change, validated now as the write
    /// itself would be, so that a change that does not load is refused rather than kept (a
    /// promotion's source read now, ``planPromotion(_:into:place:)``). 201
    /// with the planned change and its `Location`; on a protected environment, 202 with the
    /// change request that plans it once approved (an `admin` key's bypass plans it now).
    func planChange(_ request: Request) async throws(Problem) -> Response {
        let place = "POST /v1/schedule"
        try requireKey(request)
        let body = try await collectBody(request)
        let asked: ScheduleRequest
        do {
            asked = try JSONDecoder().decode(ScheduleRequest.self, from: body)
        } catch {
            throw refused(
                Problem.badRequest(
                    #"the body must be JSON {"action": "push" | "rollout" | "progressive" | "promotion", "at": "RFC 3339 time", …}: "#
                        + "\(error)"),
                path: place)
        }
        let kind = ScheduledChange.Kind(asked.action)
        try requireScopes(of: kind, request)
        let now = scheduler.now
        var change: ScheduledChange
        do throws(ScheduleError) {
            try asked.checkFields()
            change = ScheduledChange(
                id: RolloutKeeper.newID(), kind: kind, message: asked.message ?? "", by: author(of: request),
                createdAt: ScheduleTime.wholeSeconds(now), state: .planned, paths: [],
                rolloutID: request.headers[.ifMatch].map { EntityTag.opaque(of: $0) },
                steps: try asked.plannedSteps(now: now))
        } catch {
            throw refused(error.problem, path: place)
        }
        change.signedTargets = request.headers[OfferedTargets.field]
        try checkOfflineTargets(of: change, place: place)
        switch asked.action {
        case .rollout: break
        case .promotion: try await planPromotion(asked, into: &change, place: place)
        case .push, .progressive:
            guard let files = asked.files, !files.isEmpty else {
                throw refused(Problem.badRequest(#""\#(asked.action.rawValue)" needs "files""#), path: place)
            }
            var checked: [String: Data?] = [:]
            for (rawPath, content) in files {
                checked[try validatedPath(rawPath)] = .some(content.map { Data($0.utf8) })
            }
            change.files = checked
            change.paths = checked.keys.sorted()
            do throws(StoreError) {
                _ = try await specSet.writer.write(
                    ChangeSet(files: checked, message: change.message, author: change.by), precondition: .none,
                    dryRun: true)
            } catch {
                throw refused(error, path: place)
            }
        }
        switch try await scheduleApproval(of: change, place: place, request) {
        case .held(let response): return response
        case .bypassed: change.message = ChangeRequest.bypassed(change.message)
        case .open: break
        }
        do throws(ScheduleError) {
            try await scheduler.plan(change)
        } catch {
            throw refused(error.problem, path: place)
        }
        var response = Self.scheduleResponse(change.listed, status: .created)
        response.headers[.location] = EnvironmentPath.path("/v1/schedule/\(change.id)", environment: specSet.name)
        return response
    }

    /// With offline targets, a push or promotion is planned only with signed targets, checked in
    /// full at its time as a write made then (one version past the repository's then). A share
    /// change or a progressive rollout is refused: each of its steps publishes targets of its
    /// own, which are signed when the step is made (`livery rollout set --sign-with`).
    private func checkOfflineTargets(of change: ScheduledChange, place: String) throws(Problem) {
        guard writer.offlineTargets != nil else { return }
        do throws(StoreError) {
            switch change.kind {
            case .push, .promotion:
                try OfferedTargets.requirePresent(change.signedTargets)
            case .rollout, .progressive:
                throw .targetsNotSigned(
                    "this daemon keeps its targets key offline, and each step of a \(change.kind.rawValue == "rollout" ? "scheduled share change" : "progressive rollout") publishes targets signed for it then: change the rollout at the time with livery rollout set P% --sign-with KEY"
                )
            }
        } catch {
            throw refused(error, path: place)
        }
    }

    /// `DELETE /v1/schedule/{id}`: cancels a planned change, with a key that may make its
    /// writes; answers it as it is now.
    func cancelScheduledChange(_ request: Request, context: BasicRequestContext) async throws(Problem) -> Response {
        let id = context.parameters.get("id") ?? ""
        let place = "DELETE /v1/schedule/\(id)"
        try requireKey(request)
        let planned: ScheduledChange?
        do throws(ScheduleError) {
            planned = try await scheduler.list().first { $0.id == id }
        } catch {
            throw refused(error.problem, path: place)
        }
        guard let planned else { throw refused(ScheduleError.notFound(id).problem, path: place) }
        try requireScopes(of: planned.kind, request)
        do throws(ScheduleError) {
            return Self.scheduleResponse(try await scheduler.cancel(id: id), status: .ok)
        } catch {
            throw refused(error.problem, path: place)
        }
    }

    /// A 401 for a request without a key the daemon knows, before its body says which scopes
    /// it needs.
    private func requireKey(_ request: Request) throws(Problem) {
        guard access.keys.grant(of: request.headers[.authorization]) == nil else { return }
        throw Problem.unauthorized(
            scope: .push, environment: access.environment(ofPath: request.uri.path), readsNeedKey: access.readsNeedKey)
    }

    /// Throws the 403 of a key without the scopes of `kind`'s writes on the request's environment.
    private func requireScopes(of kind: ScheduledChange.Kind, _ request: Request) throws(Problem) {
        let environment = access.environment(ofPath: request.uri.path)
        for scope in kind.scopes {
            try access.require(scope, of: request.headers[.authorization], in: environment)
        }
    }

    private static func scheduleResponse(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        JSONBody.response(value, status: status, headers: [.cacheControl: "no-store"])
    }
}

/// `GET /v1/schedule`.
struct ScheduleListing: Encodable {
    /// The daemon's time, which the schedule runs by.
    var now: Date
    var changes: [ScheduledChange]
}

extension ScheduledChange.Kind {
    init(_ action: ScheduleRequest.Action) {
        switch action {
        case .push: self = .push
        case .rollout: self = .rollout
        case .progressive: self = .progressive
        case .promotion: self = .promotion
        }
    }
}

extension ScheduleError {
    var problem: Problem {
        switch self {
        case .badRequest(let detail): Problem.badRequest(detail)
        case .notFound(let id):
            Problem(kind: .scheduleNotFound, detail: "no scheduled change has the id \(id); livery schedule lists them")
        case .ended(let id, let state):
            Problem(
                kind: .scheduleEnded, detail: "scheduled change \(id) has ended (\(state.rawValue)): nothing to cancel")
        case .tooLarge(let bytes):
            Problem(
                kind: .changeTooLarge,
                detail:
                    "the schedule would hold \(bytes) bytes; it holds at most \(ScheduleStore.maxBytes): cancel planned changes or schedule fewer files"
            )
        case .store(let error): error.problem
        }
    }
}
