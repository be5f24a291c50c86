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

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        settleWindow: Duration = .milliseconds(20),
        maximumSettleWindows: Int = 10,
        rescanInterval: Duration = .seconds(1),
        fileExtensions: Set<String> = ["json", "yaml", "yml"]
    ) {
        self.settleWindow = max(settleWindow, .zero)
        self.maximumSettleWindows = max(maximumSettleWindows, 1)
        self.rescanInterval = max(rescanInterval, .milliseconds(1))
        self.fileExtensions = Set(fileExtensions.map { $0.lowercased() })
    }
}
