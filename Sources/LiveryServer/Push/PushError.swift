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

    var problem: Problem {
        switch self {
        case .forbiddenPath(let error):
            return Problem(
                kind: "forbidden-path", title: "Forbidden spec path", status: .badRequest,
                detail: error.message + "; pushes may only name .json, .yaml or .yml files inside the specs folder, not hidden ones",
                errors: [Diagnostic(error)])
        case .notFound(let path):
            return Problem(kind: "not-found", title: "No such spec file", status: .notFound, detail: "'\(path)' does not exist")
        case .preconditionFailed(let path, let current):
            let now = current.map { "its current ETag is \($0)" } ?? "it does not exist"
            return Problem(
                kind: "precondition-failed", title: "The file changed", status: .preconditionFailed,
                detail: "If-Match does not match '\(path)': \(now); fetch it again and retry")
        case .invalid(let errors):
            return Problem(
                kind: "invalid-spec", title: "The specs would not validate", status: .unprocessableContent,
                detail: "\(errors.count) error\(errors.count == 1 ? "" : "s"); nothing was written",
                errors: errors.map(Diagnostic.init))
        case .insufficientStorage(let message):
            return Problem(
                kind: "insufficient-storage", title: "Insufficient storage", status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                detail: message + "; nothing was written and the current file is unchanged")
        case .fileSystem(let message):
            return Problem(kind: "file-system", title: "File system error", status: .internalServerError, detail: message)
        }
    }
}
