import Foundation
import Hummingbird
import Livery
@_spi(LiveryInternal) import LiveryHTTP
import Prometheus

extension DaemonRoutes {
    /// The change requests of a protected environment and its protection, served for each
    /// environment like every spec-set route.
    static var changeRoutes: [Route] {
        [
            Route(.get, "/v1/changes") { routes, request, _ in try await routes.listChanges(request) },
            Route(.get, "/v1/changes/{id}") { routes, _, context in
                try await routes.showChange(try changeID(context))
            },
            Route(.post, "/v1/changes/{id}/approve", scope: .approve) { routes, request, context in
                try await routes.review(try changeID(context), approve: true, request)
            },
            Route(.post, "/v1/changes/{id}/reject", scope: .approve) { routes, request, context in
                try await routes.review(try changeID(context), approve: false, request)
            },
            Route(.get, "/v1/protection") { routes, _, _ in
                JSONBody.response(try await routes.specSet.changes.protection(), headers: [.cacheControl: "no-store"])
            },
            Route(.put, "/v1/protection", scope: .admin) { routes, request, _ in try await routes.protect(request) },
            Route(.delete, "/v1/protection", scope: .admin) { routes, request, _ in
                try await routes.specSet.changes.protect(approvals: 0, by: routes.author(of: request))
                return JSONBody.response(Protection(approvals: 0), headers: [.cacheControl: "no-store"])
            },
        ]
    }

    /// What a write to the environment needs.
    enum Approval {
        /// Nothing: the environment is open, or the request a dry run.
        case open
        /// Nothing: an `admin` key bypasses the approvals; its write's message says so.
        case bypassed
        /// Approvals: the write is held as a change request, answered with this 202.
        case held(Response)
    }

    /// Whether a write to this environment goes ahead, or is held as a change request
    /// (``ChangeBook``): validated first as the write would be (`change` under `precondition`, a
    /// dry run), so that one the write would refuse is refused now, never held.
    func approval(
        of change: ChangeSet, action: ChangeRequest.Action, precondition: SpecWriter.Precondition,
        rollout: (basisPoints: Int, replace: Bool)? = nil, place: String, _ request: Request
    ) async throws(Problem) -> Approval {
        try await approval(place: place, request) { required throws(Problem) in
            var proposal = ChangeRequest(
                id: 0, action: action, state: .pending, files: change.files, paths: change.paths,
                basisPoints: rollout?.basisPoints, replace: rollout?.replace, author: change.author,
                message: change.message, time: Date().formatted(.iso8601), required: required)
            proposal.signedTargets = change.signedTargets ?? request.headers[OfferedTargets.field]
            let running = writer.rollouts.runningID
            switch action {
            case .publish:
                if let running { throw refused(StoreError.rolloutRunning(running), path: place) }
            case .rollout:
                if let running, rollout?.replace != true {
                    throw refused(RolloutError.alreadyRunning(running).problem, path: place)
                }
            case .completion:
                guard let running else { throw refused(RolloutError.notRunning.problem, path: place) }
                if let ifMatch = request.headers[.ifMatch], ifMatch != "*", EntityTag.opaque(of: ifMatch) != running {
                    throw refused(RolloutError.idMismatch(current: running).problem, path: place)
                }
                proposal.rolloutID = running
            case .schedule:
                break  // a plan is held by ``scheduleApproval(of:place:_:)``
            }
            do throws(StoreError) {
                // Checked in full when applied, one version past the repository's then, as the
                // direct write's are now; a write that brings none is refused at once.
                if writer.offlineTargets != nil { try OfferedTargets.requirePresent(proposal.signedTargets) }
                proposal.base = try await writer.currentBundle().etag?.description
                proposal.baseRevision = try await writer.store.history(limit: 1).first?.revision
                if action != .completion {
                    _ = try await writer.write(change, precondition: precondition, dryRun: true)
                }
            } catch {
                throw refused(error, path: place)
            }
            return proposal
        }
    }

    /// Whether a plan (validated by the caller) goes in this environment's schedule now, or is
    /// held as a change request that puts it there once approved, before its first step's time.
    func scheduleApproval(of plan: ScheduledChange, place: String, _ request: Request) async throws(Problem) -> Approval
    {
        try await approval(place: place, request) { required in
            var held = plan
            held.files = nil
            return ChangeRequest(
                id: 0, action: .schedule, state: .pending, files: plan.files ?? [:], paths: plan.paths,
                plan: held, author: plan.by, message: plan.message, time: Date().formatted(.iso8601),
                required: required)
        }
    }

    /// Whether a write goes ahead (the environment open, the request a dry run or an `admin`
    /// key's bypass), or the change request `proposal` makes of it (given the approvals it
    /// needs; it throws what refuses the write) is kept and answered 202 with its `Location`.
    private func approval(
        place: String, _ request: Request,
        proposal: (_ required: Int) async throws(Problem) -> ChangeRequest
    ) async throws(Problem) -> Approval {
        guard !isDryRun(request) else { return .open }
        let required = try await specSet.changes.protection().approvals
        guard required > 0 else { return .open }
        if request.headers[.bypassApproval] == "true" {
            guard keys.ring.grant(of: request.headers[.authorization])?.allows(.admin, in: specSet.name) == true else {
                throw refused(
                    Problem(
                        kind: .bypassRefused,
                        detail: "only an admin key on '\(specSet.name)' may bypass its \(required) approvals"),
                    path: place)
            }
            return .bypassed
        }
        let submitted = try await specSet.changes.submit(try await proposal(required))
        return .held(
            JSONBody.response(
                try await view(of: submitted), status: .accepted,
                headers: [
                    .location: EnvironmentPath.path("/v1/changes/", environment: specSet.name) + "\(submitted.id)",
                    .cacheControl: "no-store",
                ]))
    }

    /// The write `change` as it goes ahead (its message saying so when an `admin` key bypasses
    /// the approvals), or the 202 that holds it as a change request (``approval(of:action:precondition:rollout:place:_:)``).
    func held(
        _ change: inout ChangeSet, action: ChangeRequest.Action, precondition: SpecWriter.Precondition,
        rollout: (basisPoints: Int, replace: Bool)? = nil, place: String, _ request: Request
    ) async throws(Problem) -> Response? {
        switch try await approval(
            of: change, action: action, precondition: precondition, rollout: rollout, place: place, request)
        {
        case .held(let response): return response
        case .bypassed: change.message = ChangeRequest.bypassed(change.message)
        case .open: break
        }
        return nil
    }

    /// `GET /v1/changes[?state=pending]`: the environment's protection and its change requests,
    /// newest first, each pending one with its preview; a change a stopped daemon left with its
    /// approvals complete is taken up first (``ChangeBook/recoveredLedger()``).
    func listChanges(_ request: Request) async throws(Problem) -> Response {
        let state = try request.uri.queryParameters.get("state").map { text throws(Problem) in
            guard let state = ChangeRequest.State(rawValue: String(text)) else {
                throw Problem.badRequest("state is pending, applied, rejected, stale or expired, not '\(text)'")
            }
            return state
        }
        var views: [ChangeView] = []
        for change in try await specSet.changes.recoveredLedger().changes.reversed()
        where state.map({ $0 == change.state }) ?? true {
            views.append(try await view(of: change))
        }
        return JSONBody.response(
            ChangeList(protection: try await specSet.changes.protection(), changes: views),
            headers: [.cacheControl: "no-store"])
    }

    /// `GET /v1/changes/{id}`: the change request with its preview while it is pending, taken up
    /// first as ``listChanges(_:)`` does.
    func showChange(_ id: Int) async throws(Problem) -> Response {
        JSONBody.response(try await view(of: specSet.changes.change(id)), headers: [.cacheControl: "no-store"])
    }

    /// `POST /v1/changes/{id}/approve` or `…/reject` `{"message": "…"}` (optional): the change
    /// request as the review left it.
    func review(_ id: Int, approve: Bool, _ request: Request) async throws(Problem) -> Response {
        let body = try await collectBody(request)
        let message: String
        do {
            message = body.isEmpty ? "" : try JSONDecoder().decode(ReviewRequest.self, from: body).message ?? ""
        } catch {
            throw Problem.badRequest(#"the body must be JSON {"message": "…"} or empty: \#(error)"#)
        }
        let by = author(of: request)
        let change =
            approve
            ? try await specSet.changes.approve(id, by: by, message: message)
            : try await specSet.changes.reject(id, by: by, message: message)
        if change.state == .applied, change.action != .schedule { specSet.metrics.pushes.increment() }
        return JSONBody.response(try await view(of: change), headers: [.cacheControl: "no-store"])
    }

    /// `PUT /v1/protection` `{"approvals": 2}`: change requests to this environment need that
    /// many approvals; 0 unprotects it, as `DELETE` does.
    func protect(_ request: Request) async throws(Problem) -> Response {
        let body = try await collectBody(request)
        let protection: Protection
        do {
            protection = try JSONDecoder().decode(Protection.self, from: body)
        } catch {
            throw Problem.badRequest(#"the body must be JSON {"approvals": 1}: \#(error)"#)
        }
        guard (0...Protection.maxApprovals).contains(protection.approvals) else {
            throw Problem.badRequest(
                "approvals is a whole number from 0 (unprotected) to \(Protection.maxApprovals), not \(protection.approvals)"
            )
        }
        try await specSet.changes.protect(approvals: protection.approvals, by: author(of: request))
        return JSONBody.response(protection, headers: [.cacheControl: "no-store"])
    }

    /// The change with its preview while it is pending and has files (not a completion, not a
    /// share change): what it would change now, file by file and identifier by identifier, as a
    /// promotion's preview says it; why there is none when
    /// the environment moved so that it no longer applies.
    private func view(of change: ChangeRequest) async throws(Problem) -> ChangeView {
        guard change.state == .pending, !change.files.isEmpty else { return ChangeView(change: change) }
        do throws(StoreError) {
            // A promotion's files are the whole of what it leaves; any other change's go over
            // what the environment holds.
            var after = change.plan?.kind == .promotion ? SpecSourceSet() : try await writer.store.read().sources
            for (path, data) in change.files {
                do {
                    try after.set(path, to: data)
                } catch {
                    throw StoreError.forbiddenPath(error)
                }
            }
            let promotion = Promotion(sourceName: "change \(change.id)", source: writer, target: writer)
            return ChangeView(
                change: change, preview: try await promotion.preview(Promotion.Origin(sources: after, revision: nil)))
        } catch {
            return ChangeView(change: change, previewProblem: error.problem.detail)
        }
    }

    private static func changeID(_ context: some RequestContext) throws(Problem) -> Int {
        guard let text = context.parameters.get("id"), let id = Int(text), id > 0 else {
            throw .badRequest("a change request's id is a positive whole number")
        }
        return id
    }
}

/// A change request as the routes answer it: with its preview while it is pending.
struct ChangeView: Encodable {
    var change: ChangeRequest
    var preview: PromotionPreview?
    /// Why a pending change has no preview: the environment moved so that it no longer applies.
    var previewProblem: String?

    private enum CodingKeys: String, CodingKey {
        case preview, previewProblem
    }

    func encode(to encoder: any Encoder) throws {
        try change.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(preview, forKey: .preview)
        try container.encodeIfPresent(previewProblem, forKey: .previewProblem)
    }
}

/// The body of `GET /v1/changes`.
struct ChangeList: Encodable {
    var protection: Protection
    var changes: [ChangeView]
}

/// The body of `POST …/approve` and `…/reject`.
struct ReviewRequest: Decodable {
    var message: String?
}
