import CInotifyTools
import Glibc

/// libinotifytools, driven from the owner thread only: the library keeps global state (its watch
/// trees, a static event buffer, static loop counters) and is not thread-safe.
///
/// **Who reads the events.** libinotifytools 3.22 has no accessor for its inotify descriptor, and
/// its reader, `inotifytools_next_events`, cannot serve an owner thread that must also wake up
/// for commands: its timeout is in whole seconds; it waits with `select()`, which corrupts memory
/// once the descriptor number reaches `FD_SETSIZE` (1024, easily passed by a daemon with many
/// connections); and with `num_events > 1` it busy-waits on `FIONREAD`. So the library creates the
/// inotify instance and keeps the watch bookkeeping (`inotifytools_watch_file`,
/// `inotifytools_remove_watch_by_wd`, `inotifytools_get_num_watches`), and the owner thread reads
/// and decodes the events itself with `read()` on the library's descriptor, which it `poll()`s
/// together with its wake-up eventfd. The descriptor is found through `/proc/self/fdinfo`: after
/// `inotifytools_initialize()` a probe watch on `/` is added through the library, and the one
/// inotify descriptor whose fdinfo lists that watch descriptor on `/`'s inode is the library's.
/// It is then made non-blocking and close-on-exec (the library opens it without either).
///
/// **Where the library's bookkeeping is not enough.** When the kernel drops a watch by itself (its
/// folder was deleted: `IN_IGNORED`), the library cannot forget it (`inotify_rm_watch` fails, so
/// the entry stays, and removing it prints to stderr); and its name → descriptor map keeps such a
/// stale entry if the same path is watched again. The owner thread therefore learns a new watch's
/// descriptor from the kernel (adding the same mask on the same inode returns the existing
/// descriptor without allocating a watch), keeps its own descriptor table as the source of truth,
/// and never asks the library to remove a watch the kernel already dropped. Stale library entries
/// are freed by `inotifytools_cleanup()` when the last watcher stops.
final class InotifyLibrary {
    /// The library's inotify descriptor.
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Initializes libinotifytools and finds its descriptor.
    static func open() -> Result<InotifyLibrary, WatchError> {
        let before: Set<Int32>
        switch ProcFileDescriptors.inotifyDescriptors() {
        case .success(let found): before = found
        case .failure(let error): return .failure(error)
        }
        guard inotifytools_initialize() == 1 else {
            let error = Errno(rawValue: inotifytools_error())
            let hint = error.rawValue == EMFILE ? " (raise fs.inotify.max_user_instances)" : ""
            return .failure(WatchError(.inotify, path: "inotify", "cannot create an inotify instance\(hint)", error))
        }
        switch locateDescriptor(since: before).flatMap(configure) {
        case .success(let descriptor):
            return .success(InotifyLibrary(descriptor: descriptor))
        case .failure(let error):
            inotifytools_cleanup()
            return .failure(error)
        }
    }

    /// Finds the library's descriptor by the probe watch described on the type.
    private static func locateDescriptor(since before: Set<Int32>) -> Result<Int32, WatchError> {
        let probe = "/"
        guard case .success(let root) = FileSystem.status(of: probe, followingLinks: true),
            inotifytools_watch_file(probe, Int32(IN_DELETE_SELF)) == 1
        else {
            return .failure(
                WatchError(
                    .inotify, path: probe, "cannot place libinotifytools' probe watch",
                    .init(rawValue: inotifytools_error()))
            )
        }
        let watch = inotifytools_wd_from_filename(probe)
        defer { inotifytools_remove_watch_by_wd(watch) }
        let candidates: Set<Int32>
        switch ProcFileDescriptors.inotifyDescriptors() {
        case .success(let found): candidates = found
        case .failure(let error): return .failure(error)
        }
        var matches = candidates.filter { descriptor in
            guard case .success(let watches) = ProcFileDescriptors.watches(of: descriptor) else { return false }
            return watches[watch] == root.id.inode
        }
        if matches.count > 1 { matches.subtract(before) }  // someone else watches `/` too: take the new one
        guard matches.count == 1, let found = matches.first else {
            return .failure(
                WatchError(.inotify, path: "/proc/self/fdinfo", "cannot identify libinotifytools' descriptor"))
        }
        return .success(found)
    }

    /// Makes the descriptor non-blocking (the owner drains it until `EAGAIN`) and close-on-exec.
    private static func configure(_ descriptor: Int32) -> Result<Int32, WatchError> {
        func failure(_ error: Errno) -> WatchError {
            WatchError(.inotify, path: "inotify descriptor \(descriptor)", "cannot configure", error)
        }
        let flags = retryingInterrupts { fcntl(descriptor, F_GETFL) }
        guard case .success(let status) = flags else { return flags.mapError(failure) }
        return retryingInterrupts { fcntl(descriptor, F_SETFL, status | O_NONBLOCK) }
            .flatMap { _ in retryingInterrupts { fcntl(descriptor, F_SETFD, FD_CLOEXEC) } }
            .map { _ in descriptor }
            .mapError(failure)
    }

    /// Watches a folder; returns its watch descriptor, or the `errno` (`ENOSPC`: the watch limit).
    func addWatch(folder path: String) -> Result<Int32, Errno> {
        let mask = InotifyEvent.watchMask
        guard inotifytools_watch_file(path, Int32(bitPattern: mask)) == 1 else {
            let code = inotifytools_error()
            return .failure(Errno(rawValue: code > 0 ? code : EIO))
        }
        // Learn the descriptor from the kernel, not the library's name map (see the type's notes).
        let learned = retryingInterrupts { inotify_add_watch(descriptor, path, mask) }
        if case .failure = learned {
            // The folder went away between the two calls; undo the library's half.
            let stale = inotifytools_wd_from_filename(path.hasSuffix("/") ? path : path + "/")
            if stale > 0 { removeWatch(stale) }
        }
        return learned
    }

    /// Removes a watch the kernel still has.
    func removeWatch(_ watch: Int32) {
        if let name = inotifytools_filename_from_wd(watch), name.pointee != 0 {
            // Fails only if the kernel dropped the watch first, which the owner avoids by reading
            // pending events (and their IN_IGNORED) before it handles removals.
            _ = inotifytools_remove_watch_by_wd(watch)
        } else {
            // A watch the library does not know (the add race above): remove it directly. EINVAL
            // means the kernel dropped it already, which is the outcome wanted.
            _ = retryingInterrupts { inotify_rm_watch(descriptor, watch) }
        }
    }

    /// The number of watches in the library's bookkeeping.
    var watchCount: Int { Int(inotifytools_get_num_watches()) }

    /// The error for an exhausted watch limit at `path`, naming the limits in force.
    func watchLimitError(path: String) -> WatchError {
        let limit = inotifytools_get_max_user_watches()
        // Since Linux 5.11 every user namespace has its own limit as well; the library only
        // reads the initial namespace's.
        // Older kernels have no such file: then the library's figure is the whole story.
        var namespaceLimit: Int?
        if case .success(let bytes) = FileSystem.contents(of: "/proc/sys/user/max_inotify_watches") {
            namespaceLimit = Int(String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
        }
        return .watchLimitReached(path: path, limit: limit > 0 ? Int(limit) : nil, namespaceLimit: namespaceLimit)
    }

    /// Frees the library's state (every watch entry, stale ones included) and returns a duplicate
    /// of its descriptor for the caller to close later, or `nil` if `dup` failed (then the library
    /// closed the instance itself).
    ///
    /// Why the duplicate: releasing an inotify instance waits for the kernel's system-wide
    /// fsnotify mark reaper (an SRCU grace period): ~10 ms when idle, seconds under load. With a
    /// duplicate open, the library's own `close()` only drops a reference and returns at once, so
    /// its global state is reset without delay and a new instance can be created while the old
    /// one is still being torn down by whoever closes the duplicate.
    func close() -> Int32? {
        let duplicate = retryingInterrupts { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
        inotifytools_cleanup()
        // Without a duplicate (out of descriptors) the library's close did the whole release.
        guard case .success(let spare) = duplicate else { return nil }
        return spare
    }
}
