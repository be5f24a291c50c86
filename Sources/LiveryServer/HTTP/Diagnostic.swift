import Livery
import LiveryWatch

/// One error as the daemon reports it in JSON: a spec error with its place, or a problem of the
/// folder itself (a ``LiveryWatch/WatchError``), whose place is a path.
public struct Diagnostic: Codable, Hashable, Sendable {
    /// The file (relative to the specs folder) or the path the error is about.
    public var file: String
    /// 1-based line, when the error has a place in a file.
    public var line: Int?
    /// 1-based column, when the error has a place in a file.
    public var column: Int?
    /// The error's code, such as `unknownTrait` or `folderMissing`.
    public var code: String
    /// What is wrong.
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int?, column: Int?, code: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.code = code
        self.message = message
    }

    /// The diagnostic of a spec error.
    public init(_ error: SpecError) {
        self.init(
            file: error.location.file, line: error.location.line, column: error.location.column,
            code: error.code.name, message: error.message)
    }

    /// `file:line:column: error: message` (or `file: error: message` without a place), the way
    /// ``Livery/SpecError`` prints.
    public var compilerStyle: String {
        guard let line, let column else { return "\(file): error: \(message)" }
        return "\(file):\(line):\(column): error: \(message)"
    }

    /// Every diagnostic of a failure a watcher or a loader reported.
    public static func all(of error: any Error) -> [Diagnostic] {
        switch error {
        case let error as SpecErrors: return error.errors.map(Diagnostic.init)
        case let error as SpecError: return [Diagnostic(error)]
        case let error as WatchError:
            return [Diagnostic(file: error.path, line: nil, column: nil, code: error.code.name, message: error.message)]
        default:
            return [Diagnostic(file: ".", line: nil, column: nil, code: "error", message: "\(error)")]
        }
    }
}
