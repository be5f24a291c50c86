/// Identifies one watch session at the owner thread.
struct WatcherID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64
    var description: String { "watcher \(rawValue)" }
}

/// A watch placed for a session: the kernel's descriptor and the folder's identity at the time.
struct PlacedWatch: Hashable, Sendable {
    var descriptor: Int32
    var folder: FileID
}

/// What the owner thread tells one watch session.
enum InotifyDelivery: Sendable {
    /// Events on the session's watches, in kernel order.
    case events([InotifyRecord])
    /// The kernel queue overflowed: events were lost, the folder must be rescanned.
    case overflow
    /// Reading inotify failed; until it recovers only rescans see changes.
    case failure(WatchError)
}

/// How the owner thread hands a session its deliveries. It first counts every delivery of a
/// drain as on its way (`announce`), then tells ``InotifyOwner/mayHoldUndeliveredEvents()`` that
/// it holds no more events, and only then hands them over (`deliver`): a session that finds its
/// count caught up after that call was told has every event read before it.
struct InotifySink: Sendable {
    /// Counts one delivery as on its way.
    var announce: @Sendable () -> Void
    /// Hands it over.
    var deliver: @Sendable (InotifyDelivery) -> Void
}

/// Why a watch could not be placed.
enum AddWatchFailure: Error, Sendable {
    /// The session stopped before the request was handled; nothing was placed.
    case stopped
    /// The kernel or the library refused, for the reason given.
    case failed(WatchError)
}

/// The bookkeeping counts the tests compare with zero after watchers stop.
struct InotifyWatchCounts: Hashable, Sendable {
    /// Watches in the owner's own table.
    var owner = 0
    /// Watches in libinotifytools' bookkeeping (`inotifytools_get_num_watches()`). It keeps
    /// watches the kernel dropped by itself (deleted folders) until the library is closed.
    var library = 0
    /// Watches the kernel reports for the descriptor (`/proc/self/fdinfo`).
    var kernel = 0
    /// Registered watch sessions.
    var sessions = 0

    /// Nothing is watched and nobody is registered.
    static let zero = InotifyWatchCounts()
}

/// A request to the owner thread. Every reply is resumed exactly once, on that thread.
enum InotifyCommand: Sendable {
    case register(WatcherID, InotifySink)
    case addWatch(WatcherID, path: String, reply: CheckedContinuation<Result<PlacedWatch, AddWatchFailure>, Never>)
    case removeWatch(WatcherID, descriptor: Int32)
    case unregister(WatcherID, reply: CheckedContinuation<Void, Never>?)
    case setDraining(Bool, reply: CheckedContinuation<Void, Never>)
    case countWatches(reply: CheckedContinuation<InotifyWatchCounts, Never>)
}
