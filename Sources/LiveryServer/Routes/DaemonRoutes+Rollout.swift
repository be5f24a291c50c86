import Foundation
import Hummingbird
@_spi(LiveryInternal) import LiveryHTTP

extension DaemonRoutes {
    /// `GET /v1/rollout`: the last rollout (running, aborted or completed) with its cohort's
    /// counts; 404 when none ever ran here.
    func rolloutStatus() throws(Problem) -> Response {
        guard let status = rollouts.status() else {
            throw Problem(
                kind: .noRollout, detail: "no rollout has run; start one with livery push FILES --rollout P%")
        }
        return JSONBody.response(status, headers: [.cacheControl: "no-store"])
    }

    /// `POST /v1/rollout`: `{"action": "set", "percent": 25}`, `{"action": "abort", "reason": "…"}`
    /// or `{"action": "complete", "message": "…"}`, with `If-Match` naming the rollout's id (or
    /// none). Answers the rollout as `GET /v1/rollout` does.
    func changeRollout(_ request: Request) async throws(Problem) -> Response {
        let body = try await collectBody(request)
        let change: RolloutChange
        do {
            change = try JSONDecoder().decode(RolloutChange.self, from: body)
        } catch {
            throw refused(
                Problem.badRequest(
                    #"the body must be JSON {"action": "set", "percent": 25} or {"action": "abort" | "complete"}: "#
                        + "\(error)"),
                path: "POST /v1/rollout")
        }
        let ifMatch = request.headers[.ifMatch]
        if change.action == .set, change.percent == nil {
            throw refused(
                Problem.badRequest(#""set" needs "percent": a share from 0 to 100, such as 25 or "12.5%""#),
                path: "POST /v1/rollout")
        }
        let signedTargets = request.headers[OfferedTargets.field]
        var completion = ChangeSet(
            files: [:], message: change.message ?? "", author: author(of: request), signedTargets: signedTargets)
        if change.action == .complete,
            let held = try await held(
                &completion, action: .completion, precondition: .none, place: "POST /v1/rollout", request)
        {
            return held
        }
        do throws(RolloutError) {
            switch change.action {
            case .set:
                _ = try await rollouts.set(
                    basisPoints: change.percent?.basisPoints ?? 0, ifMatch: ifMatch, signedTargets: signedTargets)
            case .abort:
                _ = try await rollouts.abort(
                    reason: change.reason ?? "aborted by an operator", ifMatch: ifMatch, signedTargets: signedTargets)
            case .complete:
                _ = try await rollouts.complete(
                    ifMatch: ifMatch, message: completion.message, author: completion.author,
                    signedTargets: signedTargets)
            }
        } catch {
            throw refused(error.problem, path: "POST /v1/rollout")
        }
        return try rolloutStatus()
    }

    /// Starts a rollout of the set `change` makes, validated like any write (a dry run) under
    /// `precondition` (the bundle's `If-Match` for a publish, the file's for a `PUT`), to the
    /// share the request named; `place` names the request in a refusal.
    func answer(
        startingRollout change: ChangeSet, share: RolloutShare, replace: Bool,
        precondition: SpecWriter.Precondition, place: String, _ request: Request
    )
        async throws(Problem) -> Response
    {
        let candidate: SpecWriter.Result
        do throws(StoreError) {
            candidate = try await writer.write(change, precondition: precondition, dryRun: true)
        } catch {
            throw refused(error, path: place)
        }
        if isDryRun(request) {
            return JSONBody.response(
                PublishResult(
                    etag: candidate.bundleETag.description, revision: nil, paths: candidate.paths,
                    created: candidate.created.sorted(), dryRun: true),
                headers: [.cacheControl: "no-store"])
        }
        do throws(RolloutError) {
            _ = try await rollouts.start(
                candidate, basisPoints: share.basisPoints, message: change.message, replace: replace,
                signedTargets: change.signedTargets)
        } catch {
            throw refused(error.problem, path: place)
        }
        var response = try rolloutStatus()
        // A PUT's answer names the file it wrote, here the candidate's, as every PUT does.
        if change.files.count == 1, let path = change.files.keys.first, let etag = candidate.fileETags[path] {
            response.headers[.eTag] = etag.description
        }
        return response
    }
}

/// The body of `POST /v1/rollout`.
struct RolloutChange: Decodable {
    enum Action: String, Decodable {
        case set, abort, complete
    }

    var action: Action
    var percent: RolloutShare?
    var reason: String?
    var message: String?
}
