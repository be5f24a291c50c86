import Foundation
import Logging
import Synchronization

/// One session's decisions: when to scan, what to watch, what to publish.
///
/// It lives inside the session's task and is touched by nothing else, so its state needs no lock.
/// Every event only marks the folder dirty; the scan that follows the settle window walks the
/// whole tree, places missing watches, fingerprints the content and calls the loader only if the
/// fingerprint changed. Spec folders are small, and a full scan is what keeps every way of saving
/// a file (in place, atomic rename, vim's backup dance, `cp`, Kubernetes' `..data` swap) correct
/// without interpreting events one by one.
final class WatchEngine<Value: Sendable> {
    /// Why a scan runs.
    enum Reason {
        case initial, settled, capped, rescan
    }

    let session: WatchSession
    let directory: URL
    let scanner: FolderScanner
    let configuration: WatchConfiguration
    let logger: Logger
    /// Builds the value from what the scan read.
    let loader: @Sendable (FolderContent) throws -> Value
    let output: AsyncStream<Update<Value>>.Continuation

    /// The watches this session placed, by real folder path.
    var watched: [String: PlacedWatch] = [:]
    /// Whether the last reconciliation left a folder unwatched, and whether that was reported.
    var coverage = Coverage.complete
    var rescanTimer: Task<Void, Never>?
    private var settle: SettleWindow
    private var settleTimer: Task<Void, Never>?
    private var settleGeneration: UInt64 = 0
    /// When the armed settle timer fires; nil exactly when none is armed.
    private var settleDeadline: ContinuousClock.Instant?
    /// Spec files written in place and not closed yet, by watch descriptor and name, with the
    /// time of their first write: their writer is not done, so the burst does not settle before
    /// the cap after that (see ``SettleWindow``).
    private var openWrites: [OpenWrite: ContinuousClock.Instant] = [:]
    /// Since when the oldest open writer has been writing.
    private var writingSince: ContinuousClock.Instant? { openWrites.values.min() }
    private var graceTimer: Task<Void, Never>?
    private var graceGeneration: UInt64 = 0
    private var consumedDeliveries: UInt64 = 0
    private var overflowPending = false
    private var lastPublished: ContentHash?
    /// The last listing, while the events since show it still holds.
    private var listing: KnownListing?
    /// When the last scan finished.
    private var lastScan: ContinuousClock.Instant?
    /// The scan in progress, until it is counted in the statistics.
    private var uncountedScan: Reason?

    /// A spec file in one watched folder.
    struct OpenWrite: Hashable {
        var descriptor: Int32
        var name: String
    }

    enum Coverage: Equatable {
        case complete
        /// Some folder could not be watched; `reported` once the problem was yielded.
        case incomplete(reported: Bool)
    }

    init(
        session: WatchSession,
        directory: URL,
        configuration: WatchConfiguration,
        logger: Logger,
        entersLinkedFolders: Bool,
        loader: @escaping @Sendable (FolderContent) throws -> Value,
        output: AsyncStream<Update<Value>>.Continuation
    ) {
        self.session = session
        self.directory = directory
        self.scanner = FolderScanner(
            root: Self.path(of: directory), fileExtensions: configuration.fileExtensions,
            entersLinkedFolders: entersLinkedFolders)
        self.configuration = configuration
        self.logger = logger
        self.loader = loader
        self.output = output
        self.settle = SettleWindow(
            window: configuration.settleWindow, maximumWindows: configuration.maximumSettleWindows)
    }

    /// Scans at once, then reacts to input until the session stops.
    func run(_ inputs: AsyncStream<EngineInput>) async {
        await scan(.initial)
        for await input in inputs {
            await handle(input)
        }
        settleTimer?.cancel()
        graceTimer?.cancel()
        rescanTimer?.cancel()
    }

    private func handle(_ input: EngineInput) async {
        switch input {
        case .inotify(let delivery):
            consumedDeliveries += 1
            switch delivery {
            case .events(let records):
                if let known = listing, !records.allSatisfy(known.survives) { listing = nil }
                for record in records where record.event == .watchRemoved {
                    // The kernel dropped it (folder deleted or moved away): place it again if needed.
                    watched = watched.filter { $0.value.descriptor != record.descriptor }
                    openWrites = openWrites.filter { $0.key.descriptor != record.descriptor }
                }
                for record in records { noteWriting(record) }
            case .overflow:
                listing = nil
                openWrites.removeAll()
                overflowPending = true
                session.statistics.withLock { $0.overflows += 1 }
                logger.warning("inotify queue overflowed; rescanning", metadata: metadata)
            case .failure(let error):
                listing = nil
                logger.error("watch failed", metadata: metadata(adding: ["livery.error": "\(error)"]))
            }
            noteActivity()
            if case .events(let records) = delivery {
                await noteCompletions(in: records)
            }
        case .settleTimer(let generation):
            guard generation == settleGeneration else { return }  // superseded
            settleTimer = nil
            settleDeadline = nil
            guard let deadline = settle.deadline(writingSince: writingSince) else { return }
            if ContinuousClock.now < deadline {
                armSettleTimer(at: deadline)  // more events came in since this timer was armed
            } else {
                await scan(overflowPending ? .rescan : settle.isCapped ? .capped : .settled)
            }
        case .graceTimer(let generation):
            guard generation == graceGeneration else { return }  // more events came in since
            graceTimer = nil
            // Still busy: coalesce its next step too, until it pauses or the settled scan runs.
            if await !scanEagerly() { armGraceTimer() }
        case .rescanTimer:
            // Ticks that queued up behind a slow scan (or loader) are one rescan, not several.
            if let lastScan, ContinuousClock.now - lastScan < configuration.rescanInterval / 2 { return }
            await scan(.rescan)
        }
    }

    /// Marks the folder dirty; the scan follows when the burst settles. The timer is armed
    /// earlier when the last open writer closed its file (the hold ended).
    func noteActivity() {
        settle.record(at: .now)
        guard let deadline = settle.deadline(writingSince: writingSince) else { return }
        if settleDeadline.map({ deadline < $0 }) ?? true { armSettleTimer(at: deadline) }
    }

    /// Keeps ``openWrites``: a spec file's bytes changed in place (`IN_MODIFY`, a truncation
    /// too) until its writer closes it, deletes it or renames it away.
    private func noteWriting(_ record: InotifyRecord) {
        switch record.event {
        case .modified(let name) where FolderScanner.isContent(name, fileExtensions: scanner.fileExtensions):
            let file = OpenWrite(descriptor: record.descriptor, name: name)
            if openWrites[file] == nil { openWrites[file] = .now }
        case .closedAfterWriting(let name), .deleted(let name, _), .movedOut(let name, _, _):
            openWrites[OpenWrite(descriptor: record.descriptor, name: name)] = nil
        default:
            break
        }
    }

    /// Starts (or, after any event, restarts) the completion grace when a spec file was
    /// completed: see ``WatchConfiguration/completionGrace``. A completion that is the last event
    /// of its delivery, with nothing behind it (``everythingDelivered``), skips the grace: the
    /// writer looks done, and the fast path checks again before it publishes.
    private func noteCompletions(in records: [InotifyRecord]) async {
        guard configuration.completionGrace != nil else { return }
        guard records.contains(where: completesSpecFile) || graceTimer != nil else { return }
        graceTimer?.cancel()
        graceTimer = nil
        graceGeneration += 1
        if let last = records.last, completesSpecFile(last), everythingDelivered, await scanEagerly() { return }
        armGraceTimer()
    }

    /// Arms the completion grace (if the fast path is on); it fires unless an event rearms it.
    private func armGraceTimer() {
        guard let grace = configuration.completionGrace else { return }
        graceTimer?.cancel()
        graceGeneration += 1
        let generation = graceGeneration
        let input = session.input
        graceTimer = Task {
            do { try await Task.sleep(for: grace) } catch { return }  // superseded or stopped
            input.yield(.graceTimer(generation: generation))
        }
    }

    /// Whether the event ends writing a spec file: closed after writing, or renamed into place.
    private func completesSpecFile(_ record: InotifyRecord) -> Bool {
        switch record.event {
        case .closedAfterWriting(let name), .movedIn(let name, _, false):
            FolderScanner.isContent(name, fileExtensions: scanner.fileExtensions)
        default: false
        }
    }

    /// Whether every inotify event so far has reached this engine: none queued in the kernel or
    /// held by the owner thread (in this order: see ``InotifyOwner/mayHoldUndeliveredEvents()``),
    /// none waiting in the engine's input. Events of other sessions make it `false` too.
    private var everythingDelivered: Bool {
        !session.owner.mayHoldUndeliveredEvents()
            && session.deliveries.load(ordering: .acquiring) == consumedDeliveries
    }

    /// The fast path: scans now and publishes only good content. Everything else (a load error,
    /// a missing folder) is left to the settled scan, which stays armed. Returns `false` if the
    /// folder changed again while it scanned and loaded (the caller restarts the grace, so the
    /// writer's next step is coalesced), `true` when it is done.
    private func scanEagerly() async -> Bool {
        let known = listing?.snapshot
        session.statistics.withLock {
            $0.fastScans += 1
            if known != nil { $0.listingsReused += 1 }
        }
        let snapshot = if let known { known } else { await list() }
        guard !Task.isCancelled, case .present = snapshot.state, snapshot.problems.isEmpty,
            case .success(let content) = snapshot.readContent(), content.hash != lastPublished
        else { return true }
        do {
            let value = try loader(content)
            // A writer that started again while we read may have left us a half-written state:
            // its events are queued, on their way, or already in our input.
            guard everythingDelivered else { return false }
            publish(.loaded(value, content.hash), hash: content.hash)
        } catch {
            logger.debug(
                "fast path: load failed, waiting for the folder to settle",
                metadata: metadata(adding: ["livery.error": "\(error)"]))
        }
        return true
    }

    private func armSettleTimer(at deadline: ContinuousClock.Instant) {
        settleTimer?.cancel()
        settleDeadline = deadline
        settleGeneration += 1
        let generation = settleGeneration
        let input = session.input
        settleTimer = Task {
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }  // stopped
            input.yield(.settleTimer(generation: generation))
        }
    }

    /// Scans the folder and publishes what changed.
    private func scan(_ reason: Reason) async {
        settle.reset()
        settleTimer?.cancel()
        settleTimer = nil
        settleDeadline = nil
        settleGeneration += 1
        // A writer still open at the cap keeps writing: its next event holds the next burst.
        openWrites.removeAll()
        // A full scan sees everything a pending fast path would: it supersedes it.
        graceTimer?.cancel()
        graceTimer = nil
        graceGeneration += 1
        overflowPending = false
        uncountedScan = reason
        defer {
            lastScan = .now
            countScan()
        }
        logger.trace("scanning", metadata: metadata(adding: ["livery.reason": "\(reason)"]))
        let snapshot = await list()
        guard !Task.isCancelled else { return }
        switch snapshot.state {
        case .unavailable(let error):
            publish(.failed(error), hash: .unavailable(error))
        case .present:
            if let problem = snapshot.problems.first {
                publish(.failed(problem), hash: .unavailable(problem))
                return
            }
            switch snapshot.readContent() {
            case .failure(let error):
                publish(.failed(error), hash: .unavailable(error))
            case .success(let content) where content.hash == lastPublished:
                logger.trace("content unchanged", metadata: metadata)
            case .success(let content):
                load(content, reason: reason)
            }
        }
    }

    /// Lists the folder (placing the watches it needs) and remembers the listing, unless a folder
    /// is left unwatched: changes there would send no event to drop it.
    private func list() async -> FolderSnapshot {
        let snapshot = await scanAndWatch()
        listing =
            coverage != .complete
            ? nil
            : KnownListing(
                snapshot, rootDescriptor: snapshot.root.flatMap { watched[$0]?.descriptor },
                fileExtensions: scanner.fileExtensions)
        return snapshot
    }

    private func load(_ content: FolderContent, reason: Reason) {
        let hash = content.hash
        do {
            publish(.loaded(try loader(content), hash), hash: hash)
        } catch {
            // A writer still busy (its events are already on their way) may have left the folder
            // half-written: wait for the scan those events cause. A capped burst never settles,
            // so its error is reported.
            let morePending = session.deliveries.load(ordering: .acquiring) > consumedDeliveries
            if morePending && reason != .capped {
                logger.debug(
                    "load failed while the folder is still changing; waiting",
                    metadata: metadata(adding: ["livery.error": "\(error)"]))
                return
            }
            publish(.failed(error), hash: hash)
        }
    }

    /// Counts the scan in progress, once: when its outcome is decided, before any update of it is
    /// yielded, so statistics read on receiving an update already include the scan behind it.
    private func countScan() {
        guard let reason = uncountedScan else { return }
        uncountedScan = nil
        session.statistics.withLock { statistics in
            statistics.scans += 1
            if reason == .rescan { statistics.rescans += 1 }
        }
    }

    /// Yields an update and remembers its fingerprint, so the same content is not published twice.
    /// `hash` is `nil` for a notice that is not about the content (a watch that could not be placed).
    func publish(_ update: Update<Value>, hash: ContentHash?) {
        if let hash {
            guard hash != lastPublished else { return }
            lastPublished = hash
            countScan()
        }
        switch update {
        case .loaded(_, let hash): logger.info("loaded content", metadata: metadata(adding: ["livery.hash": "\(hash)"]))
        case .failed(let error): logger.error("load failed", metadata: metadata(adding: ["livery.error": "\(error)"]))
        }
        session.statistics.withLock { $0.publishes += 1 }
        output.yield(update)
    }

    var metadata: Logger.Metadata { ["livery.watch.folder": "\(scanner.root)"] }

    /// ``metadata`` with `more`.
    func metadata(adding more: Logger.Metadata) -> Logger.Metadata { metadata.merging(more) { $1 } }

    /// The folder's path without a trailing slash.
    static func path(of directory: URL) -> String {
        let path = directory.standardizedFileURL.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
