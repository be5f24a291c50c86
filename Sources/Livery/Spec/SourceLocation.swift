/// A place in a spec source: a file (or another named source) and a 1-based line and column.
///
/// Columns count Unicode scalars, as editors and libyaml do.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, shared by every location in it (see ``SourceName``).
    var name: SourceName
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int

    /// The file's path relative to the specs folder, or the name given to an in-memory source.
    public var file: String {
        get { name.string }
        set { name = SourceName(newValue) }
    }

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.init(name: SourceName(file), line: line, column: column)
    }

    /// Creates a location in a source whose name a reader made once for all its locations.
    init(name: SourceName, line: Int, column: Int) {
        self.name = name
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
