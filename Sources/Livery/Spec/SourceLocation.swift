/// A place in a spec source: a file (or another named source) and a 1-based line and column.
///
/// Columns count Unicode scalars, as editors and libyaml do.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file's path relative to the specs folder, or the name given to an in-memory source.
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of a source, for errors that concern a whole file.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// `file:line:column`, as compilers print it.
    public var description: String { "\(file):\(line):\(column)" }
}
