import Hummingbird
import Livery

extension StoreError {
    /// The problem (and so the HTTP status) each store error answers with.
    var problem: Problem {
        switch self {
        case .forbiddenPath(let error):
            return Problem(
                kind: "forbidden-path", title: "Forbidden spec path", status: .badRequest,
                detail: error.message
                    + "; pushes may only name .json, .yaml, .yml or .tokens files inside the specs folder, not hidden ones",
                errors: [Diagnostic(error)])
        case .notFound(let path):
            return Problem(
                kind: "not-found", title: "No such spec file", status: .notFound, detail: "'\(path)' does not exist")
        case .preconditionFailed(let path, let current):
            let now = current.map { "its current ETag is \($0)" } ?? "it does not exist"
            return Problem(
                kind: "precondition-failed", title: "The file changed", status: .preconditionFailed,
                detail: "If-Match does not match '\(path)': \(now); fetch it again and retry")
        case .invalid(let errors):
            return Problem(
                kind: "invalid-spec", title: "The specs would not validate", status: .unprocessableContent,
                detail: (["\(errors.count) error\(errors.count == 1 ? "" : "s"); nothing was written"]
                    + UnknownTraitNote.notes(for: errors, knower: "this daemon")).joined(separator: "; "),
                errors: errors.map(Diagnostic.init))
        case .insufficientStorage(let message):
            return Problem(
                kind: "insufficient-storage", title: "Insufficient storage",
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                detail: message + "; nothing was written and the current file is unchanged")
        case .fileSystem(let message):
            return Problem(
                kind: "file-system", title: "File system error", status: .internalServerError, detail: message)
        case .bundleChanged(let current):
            let now = current.map { "the current bundle's ETag is \($0)" } ?? "the current specs do not form a bundle"
            return Problem(
                kind: "precondition-failed", title: "The specs changed", status: .preconditionFailed,
                detail: "If-Match does not match the bundle: \(now); fetch it again and retry")
        case .unavailable(let message):
            return Problem(
                kind: "store-unavailable", title: "Spec store unavailable", status: .serviceUnavailable,
                detail: message + "; nothing was written", headers: [.retryAfter: "1"])
        case .rolloutRunning(let id):
            return Problem(
                kind: "rollout-running", title: "A rollout is running", status: .conflict,
                detail:
                    "rollout \(id) is running: complete it (livery rollout complete) or abort it (livery rollout abort) "
                    + "before changing the stable version, or push with --rollout P% --replace to replace its candidate"
            )
        case .historyUnsupported:
            return Problem(
                kind: "history-unsupported", title: "No history", status: .notImplemented,
                detail: "history needs the etcd store (livery serve --etcd URL); a specs folder keeps no past versions")
        case .revisionCompacted(let revision):
            return Problem(
                kind: "revision-compacted", title: "Revision compacted", status: .gone,
                detail: "revision \(revision) was compacted: etcd no longer keeps the specs as they were then")
        case .revisionInFuture(let revision):
            return Problem(
                kind: "revision-not-found", title: "No such revision", status: .notFound,
                detail: "revision \(revision) is not a revision of the store yet")
        case .storeFailed(let message):
            return Problem(kind: "store-failed", title: "Spec store failed", status: .badGateway, detail: message)
        case .tooManyRaces(let tries):
            return Problem(
                kind: "write-conflict", title: "Write conflict", status: .conflict,
                detail:
                    "other writers changed the specs \(tries) times while this write was validated; nothing was written, retry"
            )
        case .cancelled:
            return Problem(
                kind: "write-cancelled", title: "Write cancelled", status: .serviceUnavailable,
                detail: "the request was cancelled while it waited for an earlier write; nothing was written")
        case .tooManyFiles(let count):
            return Problem(
                kind: "too-many-files", title: "Too many files", status: .unprocessableContent,
                detail:
                    "the change names \(count) files; one write may change at most \(SpecWriter.maxFiles); split it into several publishes"
            )
        case .changeTooLarge(let bytes):
            return Problem(
                kind: "change-too-large", title: "Change too large", status: .contentTooLarge,
                detail:
                    "the change carries \(bytes) bytes of files; one write may carry at most \(SpecWriter.maxBytes); split it into several publishes"
            )
        }
    }
}

extension Problem {
    /// A request the route cannot read: a malformed body, path or parameter (400).
    static func badRequest(_ message: String) -> Problem {
        Problem(kind: "bad-request", title: "Bad request", status: .badRequest, detail: message)
    }

    /// A body larger than `limit` bytes (413).
    static func bodyTooLarge(_ limit: Int) -> Problem {
        Problem(
            kind: "body-too-large", title: "Body too large", status: .contentTooLarge,
            detail: "the body is larger than the limit of \(limit) bytes")
    }
}
