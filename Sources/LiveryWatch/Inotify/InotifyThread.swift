import Glibc
import Synchronization

/// The owner thread's loop, and all the state only that thread touches (hence not `Sendable`:
/// it is created inside the thread's closure and never leaves it).
final class InotifyThread {
    /// One kernel watch and the sessions using it (a session can reach a folder by two paths,
    /// and two sessions can watch the same folder: the kernel gives both the same descriptor).
    private struct Watch {
        var folder: FileID
        var users: [WatcherID: Int]
    }

    private let owner: InotifyOwner
    private var library: InotifyLibrary?
    private var sinks: [WatcherID: InotifySink] = [:]
    private var watches: [Int32: Watch] = [:]
    private var watchByFolder: [FileID: Int32] = [:]
    private var draining = true
    /// Duplicates of closed library instances, closed when the thread exits.
    private var retired: [Int32] = []
    /// Large enough for hundreds of events per `read()`.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    /// The bytes the longest single event takes: its header, a name of NAME_MAX bytes and the NUL.
    private static let longestEvent = InotifyRecord.headerSize + Int(NAME_MAX) + 1

    init(owner: InotifyOwner) { self.owner = owner }

    deinit { buffer.deallocate() }

    /// Runs until no session has been left for the owner's idle linger and no command is pending.
    func run() {
        var idleSince: ContinuousClock.Instant?
        while true {
            // Events first: an IN_IGNORED read now keeps a later removal from touching a watch
            // the kernel already dropped.
            drainEvents()
            for command in owner.takeCommands() { handle(command) }
            guard sinks.isEmpty else {
                idleSince = nil
                waitForActivity(timeout: nil)
                continue
            }
            let now = ContinuousClock.now
            let lingerEnd = (idleSince ?? now) + owner.idleLinger
            idleSince = idleSince ?? now
            if now < lingerEnd {
                waitForActivity(timeout: lingerEnd - now)
                continue
            }
            guard owner.beginExit() else { continue }
            closeLibrary()
            guard owner.finishExit() else {
                idleSince = nil
                continue
            }
            releaseRetiredInstances()  // slow, and nobody waits for it any more
            owner.threadFinished()
            return
        }
    }

    /// Closes the duplicates of closed library instances (see ``InotifyLibrary/close()``).
    func releaseRetiredInstances() {
        // Linux releases the descriptor even when close reports an error; there is nothing to retry.
        for descriptor in retired { Glibc.close(descriptor) }
        retired.removeAll()
    }

    private func handle(_ command: InotifyCommand) {
        switch command {
        case .register(let watcher, let sink):
            sinks[watcher] = sink
        case .addWatch(let watcher, let path, let reply):
            reply.resume(returning: addWatch(folder: path, for: watcher))
        case .removeWatch(let watcher, let descriptor):
            release(descriptor, for: watcher, all: false)
        case .unregister(let watcher, let reply):
            sinks[watcher] = nil
            for descriptor in watches.keys { release(descriptor, for: watcher, all: true) }
            reply?.resume()
        case .setDraining(let draining, let reply):
            self.draining = draining
            reply.resume()
        case .countWatches(let reply):
            reply.resume(returning: counts())
        }
    }

    private func addWatch(folder path: String, for watcher: WatcherID) -> Result<PlacedWatch, AddWatchFailure> {
        guard sinks[watcher] != nil else { return .failure(.stopped) }
        let library: InotifyLibrary
        switch openLibrary() {
        case .success(let opened): library = opened
        case .failure(let error): return .failure(.failed(error))
        }
        let status: FileStatus
        switch FileSystem.status(of: path, followingLinks: true) {
        case .success(let found) where found.kind == .directory: status = found
        case .success: return .failure(.failed(WatchError(.notAFolder, path: path, "cannot watch: not a folder")))
        case .failure(let error) where error.isVanished:
            return .failure(
                .failed(WatchError(.folderMissing, path: path, "the folder vanished before it was watched")))
        case .failure(let error): return .failure(.failed(WatchError(.io, path: path, "cannot watch folder", error)))
        }
        if let descriptor = watchByFolder[status.id], watches[descriptor] != nil {
            watches[descriptor]?.users[watcher, default: 0] += 1
            return .success(PlacedWatch(descriptor: descriptor, folder: status.id))
        }
        if owner.simulatesWatchLimit(at: path) {
            return .failure(.failed(library.watchLimitError(path: path)))
        }
        switch library.addWatch(folder: path) {
        case .success(let descriptor):
            watches[descriptor, default: Watch(folder: status.id, users: [:])].users[watcher, default: 0] += 1
            watchByFolder[status.id] = descriptor
            return .success(PlacedWatch(descriptor: descriptor, folder: status.id))
        case .failure(let error) where error.rawValue == ENOSPC:
            return .failure(.failed(library.watchLimitError(path: path)))
        case .failure(let error) where error.isVanished:
            return .failure(
                .failed(WatchError(.folderMissing, path: path, "the folder vanished before it was watched")))
        case .failure(let error):
            return .failure(.failed(WatchError(.io, path: path, "cannot watch folder", error)))
        }
    }

    /// Drops one use (or, with `all`, every use) of a watch by a session; the last use removes it.
    private func release(_ descriptor: Int32, for watcher: WatcherID, all: Bool) {
        guard var watch = watches[descriptor], let uses = watch.users[watcher] else { return }
        watch.users[watcher] = all || uses == 1 ? nil : uses - 1
        guard watch.users.isEmpty else {
            watches[descriptor] = watch
            return
        }
        forget(descriptor)
        library?.removeWatch(descriptor)
    }

    private func forget(_ descriptor: Int32) {
        guard let watch = watches.removeValue(forKey: descriptor) else { return }
        if watchByFolder[watch.folder] == descriptor { watchByFolder[watch.folder] = nil }
    }

    private func openLibrary() -> Result<InotifyLibrary, WatchError> {
        if let library { return .success(library) }
        let opened = InotifyLibrary.open()
        if case .success(let library) = opened {
            self.library = library
            owner.reading.withLock { $0.descriptor = library.descriptor }
        }
        return opened
    }

    private func closeLibrary() {
        owner.reading.withLock { $0.descriptor = nil }
        if let duplicate = library?.close() { retired.append(duplicate) }
        library = nil
        watches.removeAll()
        watchByFolder.removeAll()
    }

    private func counts() -> InotifyWatchCounts {
        var counts = InotifyWatchCounts(owner: watches.count, sessions: sinks.count)
        if let library {
            counts.library = library.watchCount
            if case .success(let live) = ProcFileDescriptors.watches(of: library.descriptor) {
                counts.kernel = live.count
            }
        }
        return counts
    }
}

// Reading and routing events.
extension InotifyThread {
    /// Reads every pending event (the descriptor is non-blocking) and hands each session its own.
    private func drainEvents() {
        guard let library, draining else { return }
        // Set before the first read, cleared once every delivery is announced: see ``InotifySink``.
        owner.reading.withLock { $0.isDraining = true }
        var deliveries: [WatcherID: [InotifyRecord]] = [:]
        var failure: WatchError?
        var overflowed = false
        reading: while true {
            let count = retryingInterrupts { read(library.descriptor, buffer.baseAddress, buffer.count) }
            switch count {
            case .success(let count) where count > 0:
                for record in InotifyRecord.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                    route(record, into: &deliveries, overflowed: &overflowed)
                }
                // The kernel fills the buffer while the next event fits: with room left for the
                // longest one, the queue was empty. Anything queued since makes `poll` return at
                // once, so a read to see EAGAIN would only delay this delivery.
                if count <= buffer.count - Self.longestEvent { break reading }
            case .success:
                break reading
            case .failure(let error) where error.rawValue == EAGAIN:
                break reading
            case .failure(let error):
                failure = WatchError(.inotify, path: "inotify", "cannot read events", error)
                reset(into: &deliveries)
                break reading
            }
        }
        if overflowed { pruneDeadWatches(into: &deliveries) }
        var outgoing: [(InotifySink, InotifyDelivery)] = []
        if let failure { outgoing += sinks.values.map { ($0, .failure(failure)) } }
        for (watcher, records) in deliveries {
            if let sink = sinks[watcher] { outgoing.append((sink, .events(records))) }
        }
        if overflowed { outgoing += sinks.values.map { ($0, .overflow) } }
        for (sink, _) in outgoing { sink.announce() }
        owner.reading.withLock { $0.isDraining = false }
        for (sink, delivery) in outgoing { sink.deliver(delivery) }
    }

    private func route(
        _ record: InotifyRecord, into deliveries: inout [WatcherID: [InotifyRecord]], overflowed: inout Bool
    ) {
        if record.event == .queueOverflowed {
            overflowed = true
            return
        }
        // Unknown descriptors belong to watches already released (or the library's probe).
        guard let watch = watches[record.descriptor] else { return }
        for watcher in watch.users.keys { deliveries[watcher, default: []].append(record) }
        if record.event == .watchRemoved { forget(record.descriptor) }
    }

    /// After an overflow the IN_IGNORED of dropped watches may be lost: ask the kernel which
    /// watches are alive, and tell the sessions about the others as if IN_IGNORED had arrived.
    private func pruneDeadWatches(into deliveries: inout [WatcherID: [InotifyRecord]]) {
        guard let library, case .success(let live) = ProcFileDescriptors.watches(of: library.descriptor) else { return }
        for (descriptor, watch) in watches where live[descriptor] == nil {
            for watcher in watch.users.keys {
                deliveries[watcher, default: []].append(InotifyRecord(descriptor: descriptor, event: .watchRemoved))
            }
            forget(descriptor)
        }
    }

    /// Reading failed for good: close the instance and tell every session its watches are gone
    /// (they rescan and place them again on a fresh instance); the caller tells them why.
    private func reset(into deliveries: inout [WatcherID: [InotifyRecord]]) {
        for (descriptor, watch) in watches {
            for watcher in watch.users.keys {
                deliveries[watcher, default: []].append(InotifyRecord(descriptor: descriptor, event: .watchRemoved))
            }
        }
        closeLibrary()
        releaseRetiredInstances()  // its watches are still in the kernel: release them now
    }

    /// Sleeps until the wake-up eventfd or the inotify descriptor is readable, or `limit` passed.
    private func waitForActivity(timeout limit: Duration?) {
        var descriptors: [pollfd] = []
        // Without an eventfd (its creation failed) commands are picked up every 10 ms instead.
        var timeout: Int32 = 10
        if case .success(let wake) = owner.wake {
            descriptors.append(pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0))
            timeout = -1
        }
        if let limit {
            // Rounded up, so the thread does not wake just before the deadline and spin.
            let (seconds, attoseconds) = limit.components
            let milliseconds = Int32(
                clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
        }
        if let library, draining {
            descriptors.append(pollfd(fd: library.descriptor, events: Int16(POLLIN), revents: 0))
        }
        let result = descriptors.withUnsafeMutableBufferPointer { buffer in
            retryingInterrupts { poll(buffer.baseAddress, nfds_t(buffer.count), timeout) }
        }
        if case .failure = result {
            // poll only fails for lack of kernel memory here; back off instead of spinning.
            usleep(10_000)
        }
        // Only a signalled eventfd needs resetting: an inotify event alone is not worth a syscall.
        if case .success(let wake) = owner.wake, descriptors[0].revents & Int16(POLLIN) != 0 { wake.drain() }
    }
}
