/// Counters describing what a ``FolderWatcher`` has done so far.
public struct WatchStatistics: Sendable, Hashable {
    /// Scans of the folder: the initial one, one per settled burst of events, and every rescan.
    /// A scan is counted once its outcome is decided, before its update (if any) is yielded.
    public var scans = 0
    /// Full rescans that no ordinary event asked for: after a queue overflow, and the periodic
    /// ones while inotify cannot cover the folder. Included in ``scans``.
    public var rescans = 0
    /// Times the kernel's inotify queue overflowed (each forces a rescan).
    public var overflows = 0
    /// Updates yielded, ``Update/loaded(_:_:)`` and ``Update/failed(_:)`` alike.
    public var publishes = 0
    /// Fast-path scans (see ``WatchConfiguration/completionGrace``). Not included in ``scans``,
    /// which counts the scans that settle the folder.
    public var fastScans = 0
    /// Fast-path scans that re-read the files of the last listing instead of listing the folder
    /// again, because every event since was a write or a rename into place of a listed file (or
    /// touched only hidden files). Included in ``fastScans``.
    public var listingsReused = 0
    /// Folders currently watched through inotify.
    public var watchedFolders = 0
    /// Whether the watcher currently relies on periodic rescans (see
    /// ``WatchConfiguration/rescanInterval``).
    public var isRescanningPeriodically = false

    /// Creates zeroed statistics.
    public init() {}
}
