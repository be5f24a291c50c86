import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP

extension DaemonRoutes {
    /// `GET`/`POST …/schedule` and `DELETE …/schedule/{id}`, served for each environment like
    /// every spec-set route: an environment's schedule is its own.
    static var scheduleRoutes: [Route] {
        [
            Route(.get, "/v1/schedule") { routes, _, _ in try await routes.scheduleListing() },
            Route(.post, "/v1/schedule", writes: true) { routes, request, _ in try await routes.planChange(request) },
            Route(.delete, "/v1/schedule/{id}", writes: true) { routes, _, context in
                try await routes.cancelScheduledChange(context: context)
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
    /// itself would be, so that a change that does not load is refused rather than kept. 201
    /// with the planned change and its `Location`.
    func planChange(_ request: Request) async throws(Problem) -> Response {
        let place = "POST /v1/schedule"
        let body = try await collectBody(request)
        let asked: ScheduleRequest
        do {
            asked = try JSONDecoder().decode(ScheduleRequest.self, from: body)
        } catch {
            throw refused(
                Problem.badRequest(
                    #"the body must be JSON {"action": "push" | "rollout" | "progressive", "at": "RFC 3339 time", …}: "#
                        + "\(error)"),
                path: place)
        }
        let now = scheduler.now
        var change: ScheduledChange
        do throws(ScheduleError) {
            change = ScheduledChange(
                id: RolloutKeeper.newID(), kind: ScheduledChange.Kind(asked.action), message: asked.message ?? "",
                createdAt: ScheduleTime.wholeSeconds(now), state: .planned, paths: [],
                rolloutID: request.headers[.ifMatch].map { EntityTag.opaque(of: $0) },
                steps: try asked.plannedSteps(now: now))
        } catch {
            throw refused(error.problem, path: place)
        }
        if asked.action != .rollout {
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
                    ChangeSet(files: checked, message: change.message, author: Self.pushKeyName), precondition: .none,
                    dryRun: true)
            } catch {
                throw refused(error, path: place)
            }
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

    /// `DELETE /v1/schedule/{id}`: cancels a planned change; answers it as it is now.
    func cancelScheduledChange(context: BasicRequestContext) async throws(Problem) -> Response {
        let id = context.parameters.get("id") ?? ""
        do throws(ScheduleError) {
            return Self.scheduleResponse(try await scheduler.cancel(id: id), status: .ok)
        } catch {
            throw refused(error.problem, path: "DELETE /v1/schedule/\(id)")
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
