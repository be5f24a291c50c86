/// Counters describing what a ``FolderWatcher`` has done so far.
public struct WatchStatistics: Sendable, Hashable {
    /// Finished scans of the folder: the initial one, one per settled burst of events, and every
    /// rescan. A scan is counted once its update (if any) has been yielded.
    public var scans = 0
    /// Full rescans that no ordinary event asked for: after a queue overflow, and the periodic
    /// ones while inotify cannot cover the folder. Included in ``scans``.
    public var rescans = 0
    /// Times the kernel's inotify queue overflowed (each forces a rescan).
    public var overflows = 0
    /// Updates yielded, ``Update/loaded(_:_:)`` and ``Update/failed(_:)`` alike.
    public var publishes = 0
    /// Folders currently watched through inotify.
    public var watchedFolders = 0
    /// Whether the watcher currently relies on periodic rescans (see
    /// ``WatchConfiguration/rescanInterval``).
    public var isRescanningPeriodically = false

    /// Creates zeroed statistics.
    public init() {}
}
