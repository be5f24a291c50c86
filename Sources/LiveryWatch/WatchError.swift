/// A problem watching a folder: the folder is gone, inotify cannot cover it, or a file could not
/// be read.
///
/// Its description reads like a compiler diagnostic, `path: error: message`, the way
/// `SpecError` does, so both kinds of failure look alike in a terminal.
public struct WatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of a ``WatchError``, for code that reacts to some kinds differently.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The per-user inotify watch limit (`fs.inotify.max_user_watches`) is exhausted; the
        /// watcher falls back to periodic rescans until a watch can be added again.
        public static let watchLimitReached = Code("watchLimitReached")
        /// The watched folder does not exist (it was deleted or moved away); the watcher waits
        /// for it to come back.
        public static let folderMissing = Code("folderMissing")
        /// The watched path exists but is not a folder.
        public static let notAFolder = Code("notAFolder")
        /// A file or folder could not be read.
        public static let io = Code("io")
        /// inotify itself failed: no instance could be created, or reading it failed.
        public static let inotify = Code("inotify")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of error this is.
    public var code: Code
    /// The file or folder the error is about.
    public var path: String
    /// What went wrong and what happens next, in one sentence without a trailing period.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `path: error: message`.
    public var description: String { "\(path): error: \(message)" }
}

extension WatchError {
    /// A failed system call on `path`, such as `cannot list folder: Permission denied`.
    init(_ code: Code, path: String, _ what: String, _ errno: Errno) {
        self.init(code, path: path, "\(what): \(errno)")
    }

    /// The watch limit is exhausted. `limit` is the current `fs.inotify.max_user_watches`;
    /// `namespaceLimit` the user namespace's own, lower limit (`/proc/sys/user/max_inotify_watches`)
    /// when the process runs in one, as in many containers.
    static func watchLimitReached(path: String, limit: Int?, namespaceLimit: Int? = nil) -> WatchError {
        var current = limit.map { " (currently \($0)" } ?? ""
        if let namespaceLimit, namespaceLimit != limit {
            current += current.isEmpty ? " (" : "; "
            current += "\(namespaceLimit) in this user namespace, see /proc/sys/user/max_inotify_watches"
        }
        if !current.isEmpty { current += ")" }
        return WatchError(
            .watchLimitReached,
            path: path,
            "cannot add an inotify watch: the per-user limit fs.inotify.max_user_watches\(current) is "
                + "exhausted; raise it (sysctl -w fs.inotify.max_user_watches=524288); until then the folder "
                + "is rescanned periodically"
        )
    }
}
