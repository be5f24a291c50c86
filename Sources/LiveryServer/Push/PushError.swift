import Hummingbird
import Livery

/// Why a push (or a file read) was refused; each case maps to one HTTP status.
enum PushError: Error {
    /// The path breaks a rule of ``Livery/SpecPath`` (400).
    case forbiddenPath(SpecError)
    /// No such file (404).
    case notFound(String)
    /// `If-Match` does not match the file's current tag (412).
    case preconditionFailed(path: String, current: EntityTag?)
    /// The folder as it would be after the change does not validate (422).
    case invalid([SpecError])
    /// The folder could not be read or written (500).
    case fileSystem(String)
    /// The disk (or the user's quota) is full: nothing was written (507).
    case insufficientStorage(String)
    /// `If-Match` on a publish does not match the bundle the store holds now (412).
    case bundleChanged(current: EntityTag?)
    /// The request body is not what the route expects (400).
    case badRequest(String)
    /// The body is larger than the limit, in bytes (413).
    case bodyTooLarge(Int)
    /// The store cannot be reached (etcd down, no leader): nothing was written (503).
    case unavailable(String)
    /// The store keeps no history: a folder (501).
    case historyUnsupported
    /// The revision asked for was compacted away (410).
    case revisionCompacted(Int64)
    /// The revision asked for does not exist yet (404).
    case revisionInFuture(Int64)
    /// The store answered something unexpected (502).
    case storeFailed(String)
    /// Other writers kept changing the specs while this one retried (409).
    case tooManyRaces(Int)

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
        case .badRequest(let message):
            return Problem(kind: "bad-request", title: "Bad request", status: .badRequest, detail: message)
        case .bodyTooLarge(let limit):
            return Problem(
                kind: "body-too-large", title: "Body too large", status: .contentTooLarge,
                detail: "the body is larger than the limit of \(limit) bytes")
        case .unavailable(let message):
            return Problem(
                kind: "store-unavailable", title: "Spec store unavailable", status: .serviceUnavailable,
                detail: message + "; nothing was written", headers: [.retryAfter: "1"])
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
        }
    }
}
