/// A place in a spec source: a file (or another named source) and a 1-based line and column.
///
/// Columns count Unicode scalars, as editors and libyaml do.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, shared by every location in it (see ``SourceName``).
    var name: SourceName
    /// The line and column in 32 bits each: every value and key of a parsed document holds a
    /// location, and a tree of thousands of tokens is a few megabytes, so each byte saved there
    /// is memory a read need not fill and free. Larger numbers (no file within the reader's
    /// limits has them) are kept as `UInt32.max`.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The line, starting at 1.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }
    /// The column, starting at 1.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

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
    /// Always inlined: the readers make one for every value and key.
    @inline(__always)
    init(name: SourceName, line: Int, column: Int) {
        self.name = name
        self.storedLine = UInt32(clamping: line)
        self.storedColumn = UInt32(clamping: column)
    }

    /// The start of a source, for errors that concern a whole file.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// `file:line:column`, as compilers print it.
    public var description: String { "\(file):\(line):\(column)" }
}
