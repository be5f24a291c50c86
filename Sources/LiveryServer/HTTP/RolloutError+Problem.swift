import Hummingbird

extension RolloutError {
    /// The problem (and so the HTTP status) each case answers with.
    var problem: Problem {
        switch self {
        case .alreadyRunning(let id):
            Problem(
                kind: .rolloutRunning,
                detail: "rollout \(id) is running; at most one runs at a time: complete or abort it, "
                    + "or replace its candidate (livery push --rollout P% --replace, \"replace\": true)")
        case .notRunning:
            Problem(
                kind: .rolloutNotRunning, detail: "no rollout is running; start one with livery push FILES --rollout P%"
            )
        case .idMismatch(let current):
            Problem(
                kind: .preconditionFailed,
                detail: "If-Match does not name the running rollout, \(current); read GET /v1/rollout and retry")
        case .candidateIsStable(let etag):
            Problem(
                kind: .rolloutUnchanged,
                detail: "the candidate is the stable version \(etag): nothing would change for any client")
        case .noStableVersion:
            Problem(
                kind: .noBundle, detail: "the daemon has no good bundle yet, so a rollout has nothing to start from",
                headers: [.retryAfter: "1"])
        case .changedElsewhere:
            Problem(
                kind: .rolloutChanged,
                detail: "another daemon changed the rollout at the same time; read GET /v1/rollout and retry")
        case .store(let error):
            error.problem
        }
    }
}
