import Foundation
import Glibc
import Synchronization

/// The one thread of the process that talks to libinotifytools, shared by every watcher.
///
/// Callers send commands; the thread, started on demand, drains the kernel's events and the
/// command queue in turn and sleeps in `poll()` on the inotify descriptor and a wake-up eventfd.
/// When the last session unregisters it closes the library (freeing all its state) and exits; the
/// next command starts a fresh one. It lingers idle for ``State/idleLinger`` first: closing an
/// inotify descriptor waits for the kernel's (system-wide) fsnotify mark reaper, an SRCU grace
/// period that takes ~10 ms when idle and far longer under load, and a watcher started meanwhile
/// would wait behind it; lingering keeps start/stop churn off that path. The lifecycle is decided
/// under ``state``'s lock; thread starts, wake-ups and library calls happen outside it.
final class InotifyOwner: Sendable {
    /// The process-wide owner: libinotifytools has global state, so there can only be one.
    static let shared = InotifyOwner()

    enum Phase: Sendable {
        /// No thread; the library is closed.
        case idle
        /// The thread runs (or is being started) and drains the queue.
        case running
        /// The thread found nothing to do and is closing the library; it re-checks the queue
        /// before it exits, so commands sent meanwhile are not lost.
        case exiting
    }

    struct State: Sendable {
        var phase = Phase.idle
        var queue: [InotifyCommand] = []
        var nextWatcher: UInt64 = 1
        var threadsStarted = 0
        /// Owner threads not yet finished; more than one only while an old one releases its
        /// inotify instance (see ``InotifyLibrary/close()``).
        var threadsRunning = 0
        /// How long the thread waits, with no session left, before it closes the library and exits.
        var idleLinger = Duration.seconds(1)
    }

    /// Shared between the owner thread, which updates it, and the engines, which ask whether
    /// events are still on their way to them.
    struct ReadingState: Sendable {
        /// The library's inotify descriptor while it is open. Cleared before it is closed, under
        /// the lock, so a descriptor read under the lock is never closed (nor its number reused)
        /// before the lock is released.
        var descriptor: Int32?
        /// Whether the owner thread is between its first read of a drain and announcing what it
        /// read to the sessions (see ``InotifySink``).
        var isDraining = false
    }

    /// Test hooks; see ``InotifyOwner/Faults``.
    struct Faults: Sendable {
        /// Adding a watch under any of these folders fails with `ENOSPC`, as if
        /// `fs.inotify.max_user_watches` were exhausted.
        var watchLimitPrefixes: [String] = []
    }

    let state = Mutex(State())
    let faults = Mutex(Faults())
    /// What the owner thread is doing with the events, for ``mayHoldUndeliveredEvents()``.
    let reading = Mutex(ReadingState())
    let wake: Result<WakeSignal, WatchError> = WakeSignal.make()

    private init() {}

    /// A fresh session identity.
    func makeWatcherID() -> WatcherID {
        state.withLock { state in
            defer { state.nextWatcher += 1 }
            return WatcherID(rawValue: state.nextWatcher)
        }
    }

    /// Registers a session; `sink` is called on the owner thread with its events.
    func register(_ watcher: WatcherID, sink: InotifySink) {
        send(.register(watcher, sink))
    }

    /// Watches a folder for a session.
    func addWatch(folder path: String, for watcher: WatcherID) async -> Result<PlacedWatch, AddWatchFailure> {
        await withCheckedContinuation { send(.addWatch(watcher, path: path, reply: $0)) }
    }

    /// Drops a session's interest in a watch; the kernel watch goes when nobody else uses it.
    func removeWatch(_ descriptor: Int32, for watcher: WatcherID) {
        send(.removeWatch(watcher, descriptor: descriptor))
    }

    /// Unregisters a session and removes its watches; returns once they are gone.
    func unregister(_ watcher: WatcherID) async {
        await withCheckedContinuation { send(.unregister(watcher, reply: $0)) }
    }

    /// Unregisters a session without waiting (from `deinit` or a stream's termination handler).
    func unregisterSoon(_ watcher: WatcherID) {
        send(.unregister(watcher, reply: nil))
    }

    /// Test hook: stops (or resumes) reading the inotify descriptor, so the kernel queue fills up.
    func setDraining(_ draining: Bool) async {
        await withCheckedContinuation { send(.setDraining(draining, reply: $0)) }
    }

    /// The bookkeeping counts; zero without starting a thread when the owner is idle.
    func watchCounts() async -> InotifyWatchCounts {
        let idle = state.withLock { $0.phase == .idle && $0.queue.isEmpty }
        if idle { return .zero }
        return await withCheckedContinuation { send(.countWatches(reply: $0)) }
    }

    /// Whether inotify events may exist that no session has been handed yet: queued in the kernel
    /// (`FIONREAD` on the descriptor), or read by the owner thread and not yet delivered. `true`
    /// when it cannot tell. The queue is shared by every session, so another session's events
    /// count too: a conservative answer.
    ///
    /// A session that gets `false` and then finds its own delivery count caught up has been handed
    /// every event up to the call: one the owner thread read before the call was counted (see
    /// ``InotifySink``) before ``ReadingState/isDraining`` was cleared.
    func mayHoldUndeliveredEvents() -> Bool {
        reading.withLock { reading in
            guard !reading.isDraining, let descriptor = reading.descriptor else { return true }
            // Under the lock: the owner thread cannot close the descriptor meanwhile (see
            // ``ReadingState/descriptor``). FIONREAD on an open inotify descriptor cannot fail;
            // if it ever did, not knowing means "maybe".
            var queued: Int32 = 0
            guard case .success = retryingInterrupts({ ioctl(descriptor, UInt(FIONREAD), &queued) }) else {
                return true
            }
            return queued > 0
        }
    }

    /// Whether no owner thread is running.
    var isIdle: Bool { state.withLock { $0.phase == .idle } }

    /// How long the thread lingers with no session before it exits (see the type's notes).
    var idleLinger: Duration {
        state.withLock { $0.idleLinger }
    }

    private func send(_ command: InotifyCommand) {
        enum Action { case start, wake, nothing }
        let action: Action = state.withLock { state in
            state.queue.append(command)
            switch state.phase {
            case .idle:
                state.phase = .running
                state.threadsStarted += 1
                state.threadsRunning += 1
                return .start
            case .running: return .wake
            case .exiting: return .nothing
            }
        }
        switch action {
        case .start:
            let thread = Thread { InotifyThread(owner: self).run() }
            thread.name = "livery-inotify"
            thread.start()
        case .wake:
            if case .success(let wake) = wake { wake.signal() }
        case .nothing:
            break
        }
    }
}

// The owner thread's side of the state machine.
extension InotifyOwner {
    /// Takes every queued command.
    func takeCommands() -> [InotifyCommand] {
        state.withLock { state in
            defer { state.queue.removeAll(keepingCapacity: true) }
            return state.queue
        }
    }

    /// With no sessions left: moves to `.exiting` unless commands arrived meanwhile.
    func beginExit() -> Bool {
        state.withLock { state in
            guard state.queue.isEmpty else { return false }
            state.phase = .exiting
            return true
        }
    }

    /// After closing the library: moves to `.idle` (the thread then returns), or back to
    /// `.running` if commands arrived while it was closing.
    func finishExit() -> Bool {
        state.withLock { state in
            guard state.queue.isEmpty else {
                state.phase = .running
                return false
            }
            state.phase = .idle
            return true
        }
    }

    /// The thread is about to return: it touches nothing shared any more.
    func threadFinished() {
        state.withLock { $0.threadsRunning -= 1 }
    }

    /// Whether adding a watch at `path` must fail with `ENOSPC` (test hook).
    func simulatesWatchLimit(at path: String) -> Bool {
        faults.withLock { faults in
            faults.watchLimitPrefixes.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
}
