/// A problem with the offline cache of a ``RemoteSpecSource``: a file that cannot be read or
/// written, or one that is truncated or corrupt. Such a file is never applied.
///
/// Its description reads like a compiler's: `path:line: error: message` when the problem is
/// on a line of the file's header, else `path: error: message`.
public struct BundleCacheError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``BundleCacheError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The file could not be read.
        public static let unreadable = Code("unreadable")
        /// The file could not be written; the previous one, if any, is unchanged.
        public static let unwritable = Code("unwritable")
        /// The file ends before the body its header announces.
        public static let truncated = Code("truncated")
        /// The header does not read, or the body does not match its digest or length.
        public static let corrupt = Code("corrupt")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of problem this is.
    public var code: Code
    /// The cache file.
    public var path: String
    /// The 1-based line of the file's header, when the problem is on one.
    public var line: Int?
    /// What went wrong, in one sentence without a trailing period.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, line: Int? = nil, _ message: String) {
        self.code = code
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: error: message`, or `path: error: message`.
    public var description: String {
        if let line { return "\(path):\(line): error: \(message)" }
        return "\(path): error: \(message)"
    }
}
