package import Livery
import LiveryWatch

/// One error as the daemon reports it in JSON: a spec error with its place, or a problem of the
/// folder itself (a ``LiveryWatch/WatchError``), whose place is a path.
package struct Diagnostic: Codable, Hashable, Sendable {
    /// The file (relative to the specs folder) or the path the error is about.
    public var file: String
    /// 1-based line, when the error has a place in a file.
    public var line: Int?
    /// 1-based column, when the error has a place in a file.
    public var column: Int?
    /// The error's code, such as `unknownTrait` or `folderMissing`.
    public var code: String
    /// What is wrong, with the places it names relative to the specs folder like ``file``.
    public var message: String
    /// The message as words and places, for a client that names files against its own base
    /// (``named(_:)``), when it names places besides ``file``; nil when it names none.
    public var messageParts: SpecMessage?

    /// Creates a diagnostic.
    public init(
        file: String, line: Int?, column: Int?, code: String, message: String, messageParts: SpecMessage? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.code = code
        self.message = message
        self.messageParts = messageParts
    }

    /// The diagnostic of a spec error.
    public init(_ error: SpecError) {
        self.init(
            file: error.location.file, line: error.location.line, column: error.location.column,
            code: error.code.name, message: error.message, messageParts: error.text.places.isEmpty ? nil : error.text)
    }

    /// Diagnostics are equal when they print the same: ``messageParts`` only says how.
    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.code, lhs.message) == (
            rhs.file, rhs.line, rhs.column, rhs.code, rhs.message
        )
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(code)
        hasher.combine(message)
    }

    /// The diagnostic with ``file`` and every place of its message named by `naming`, so that
    /// all of them share one base. A diagnostic without a line is about a path on the daemon's
    /// machine (the folder itself), which keeps its name.
    public func named(_ naming: SpecFileNaming) -> Diagnostic {
        var named = self
        if line != nil { named.file = naming.name(file) }
        if let messageParts {
            let parts = messageParts.named(naming)
            named.messageParts = parts
            named.message = parts.rendered(.asStored)
        }
        return named
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
