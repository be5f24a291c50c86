/// How a ``FolderWatcher`` turns file-system events into updates.
public struct WatchConfiguration: Sendable, Hashable {
    /// How long the folder must stay quiet after an event before it is scanned. 20 ms by default:
    /// long enough to coalesce an editor's save (temporary file, rename, delete), short enough
    /// that a single change feels immediate.
    public var settleWindow: Duration
    /// The longest a burst of events may postpone a scan, in settle windows. 10 by default, so a
    /// never-ending stream of writes still publishes at least every 200 ms.
    public var maximumSettleWindows: Int
    /// How often the folder is rescanned while inotify cannot cover it (the watch limit is
    /// exhausted, or no watch could be placed). 1 s by default.
    public var rescanInterval: Duration
    /// The extensions of the files whose content counts, compared case-insensitively, without
    /// the dot. Hidden files (leading dot) never count.
    public var fileExtensions: Set<String>
    /// The fast path. When an event completes a spec file (closed after writing, or renamed into
    /// place — the last step of every save), the folder is scanned without waiting for the
    /// settle window, and a good result is published if no further event came in meanwhile:
    ///
    /// - If that event is the last one the watcher has, with nothing queued behind it in the
    ///   kernel, the writer is done: the folder is scanned at once.
    /// - Otherwise (the writer is still going: another file is on its way), the scan waits until
    ///   nothing has happened for this long, so a burst of saves is published once.
    ///
    /// Events that arrive while the fast path scans and loads cancel its publish and restart the
    /// grace, so a save that goes on is never published half-done. A result that does not load
    /// waits for the settle window, so a writer that is not done yet is never reported. 1 ms by
    /// default; nil turns the fast path off (every change waits for the settle window).
    public var completionGrace: Duration?

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        settleWindow: Duration = .milliseconds(20),
        maximumSettleWindows: Int = 10,
        rescanInterval: Duration = .seconds(1),
        fileExtensions: Set<String> = ["json", "yaml", "yml"],
        completionGrace: Duration? = .milliseconds(1)
    ) {
        self.settleWindow = max(settleWindow, .zero)
        self.maximumSettleWindows = max(maximumSettleWindows, 1)
        self.rescanInterval = max(rescanInterval, .milliseconds(1))
        self.fileExtensions = Set(fileExtensions.map { $0.lowercased() })
        self.completionGrace = completionGrace.map { max($0, .zero) }
    }
}
