import Hummingbird
import Livery

extension StoreError {
    /// The problem (and so the HTTP status) each store error answers with.
    var problem: Problem {
        switch self {
        case .forbiddenPath(let error):
            return Problem(
                kind: .forbiddenPath,
                detail: error.message
                    + "; pushes may only name .json, .yaml, .yml or .tokens files inside the specs folder, not hidden ones",
                errors: [Diagnostic(error)])
        case .notFound(let path):
            return Problem(
                kind: .notFound, detail: "'\(path)' does not exist")
        case .preconditionFailed(let path, let current):
            let now = current.map { "its current ETag is \($0)" } ?? "it does not exist"
            return Problem(
                kind: .preconditionFailed, detail: "If-Match does not match '\(path)': \(now); fetch it again and retry"
            )
        case .invalid(let errors):
            return Problem(
                kind: .invalidSpec,
                detail: (["\(errors.count) error\(errors.count == 1 ? "" : "s"); nothing was written"]
                    + UnknownTraitNote.notes(for: errors, knower: "this daemon")).joined(separator: "; "),
                errors: errors.map(Diagnostic.init))
        case .insufficientStorage(let message):
            return Problem(
                kind: .insufficientStorage, detail: message + "; nothing was written and the current file is unchanged")
        case .fileSystem(let message):
            return Problem(
                kind: .fileSystem, detail: message)
        case .bundleChanged(let current):
            let now = current.map { "the current bundle's ETag is \($0)" } ?? "the current specs do not form a bundle"
            return Problem(
                kind: .preconditionFailed,
                detail: "If-Match does not match the bundle: \(now); fetch it again and retry")
        case .unavailable(let message):
            return Problem(
                kind: .storeUnavailable, detail: message + "; nothing was written", headers: [.retryAfter: "1"])
        case .rolloutRunning(let id):
            return Problem(
                kind: .rolloutRunning,
                detail:
                    "rollout \(id) is running: complete it (livery rollout complete) or abort it (livery rollout abort) "
                    + "before changing the stable version, or push with --rollout P% --replace to replace its candidate"
            )
        case .revisionCompacted(let revision):
            return Problem(
                kind: .revisionCompacted,
                detail: "revision \(revision) was compacted: etcd no longer keeps the specs as they were then")
        case .revisionPruned(let revision):
            return Problem(
                kind: .revisionCompacted,
                detail:
                    "revision \(revision) is no longer in the history, which keeps the newest --history-limit publishes"
            )
        case .versionNotFound(let sentence):
            return Problem(kind: .notFound, detail: sentence)
        case .revisionInFuture(let revision):
            return Problem(
                kind: .revisionNotFound, detail: "revision \(revision) is not a revision of the store yet")
        case .storeFailed(let message):
            return Problem(kind: .storeFailed, detail: message)
        case .tooManyRaces(let tries):
            return Problem(
                kind: .writeConflict,
                detail:
                    "other writers changed the specs \(tries) times while this write was validated; nothing was written, retry"
            )
        case .cancelled:
            return Problem(
                kind: .writeCancelled,
                detail: "the request was cancelled while it waited for an earlier write; nothing was written")
        case .tooManyFiles(let count):
            return Problem(
                kind: .tooManyFiles,
                detail:
                    "the change names \(count) files; one write may change at most \(SpecWriter.maxFiles); split it into several publishes"
            )
        case .changeTooLarge(let bytes):
            return Problem(
                kind: .changeTooLarge,
                detail:
                    "the change carries \(bytes) bytes of files; one write may carry at most \(SpecWriter.maxBytes); split it into several publishes"
            )
        }
    }
}

extension Problem {
    /// A request the route cannot read: a malformed body, path or parameter (400).
    static func badRequest(_ message: String) -> Problem {
        Problem(kind: .badRequest, detail: message)
    }

    /// A body larger than `limit` bytes (413).
    static func bodyTooLarge(_ limit: Int) -> Problem {
        Problem(
            kind: .bodyTooLarge, detail: "the body is larger than the limit of \(limit) bytes")
    }
}
