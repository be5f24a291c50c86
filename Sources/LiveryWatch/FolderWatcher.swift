public import Foundation
public import Livery
public import Logging
import Synchronization

/// Follows a folder recursively and yields an ``Update`` each time its content really changes.
///
/// ```swift
/// let watcher = FolderWatcher(directory: specs, logger: logger) { try MyConfig(folder: $0) }
/// for await update in watcher {
///     switch update {
///     case .loaded(let config, _): apply(config)
///     case .failed(let error): logger.error("\(error)")  // keep the last good config
///     }
/// }
/// ```
///
/// Watching starts when the watcher is created: the first update, from an initial scan, follows
/// at once. After that, every burst of file-system events is coalesced by a settle window
/// (``WatchConfiguration/settleWindow``), the folder is rescanned, and the loader runs only if
/// the relative paths or bytes of the content files (see ``WatchConfiguration/fileExtensions``;
/// hidden files excluded), or the places of links to folders, changed. Saving the same bytes again publishes nothing; a bad state is
/// reported once, as ``Update/failed(_:)``, and never replaces the last good value, which stays
/// with the consumer.
///
/// Covered: writes in place, atomic saves (temporary file renamed over), vim's backup-and-rewrite
/// save, `cp` over a file, moves into and out of the folder, deletions, new subfolders (files
/// written before their watch existed included), renamed or deleted subfolders, the folder itself
/// deleted and re-created (an ``WatchError/Code/folderMissing`` failure while it is gone), links
/// to files or folders elsewhere (their real folders are watched too), and Kubernetes ConfigMap
/// volumes (`..data` swapped atomically). When inotify cannot cover the folder (the watch limit is
/// exhausted) it is rescanned every ``WatchConfiguration/rescanInterval`` instead.
///
/// The updates are a single-consumer sequence with an unbounded buffer. Iterating keeps the
/// watcher alive; cancelling the iterating task, calling ``stop()``, or releasing the watcher
/// stops it and removes its watches.
public final class FolderWatcher<Value: Sendable>: AsyncSequence, Sendable {
    /// Each update.
    public typealias Element = Update<Value>
    /// Problems are updates, never thrown.
    public typealias Failure = Never

    /// The watched folder.
    public let directory: URL
    private let session: WatchSession
    private let updates: AsyncStream<Update<Value>>

    /// Starts watching `directory`.
    ///
    /// - Parameters:
    ///   - directory: The folder to follow, recursively. It need not exist yet.
    ///   - configuration: Timing and which files count as content.
    ///   - logger: Where to log what the watcher does; nothing is logged without one.
    ///   - loader: Builds a value from the folder. Called from a task after each content change;
    ///     what it throws is yielded as ``Update/failed(_:)``.
    public convenience init(
        directory: URL,
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger = .discarding,
        loader: @escaping @Sendable (URL) throws -> Value
    ) {
        self.init(
            directory: directory, configuration: configuration, logger: logger, entersLinkedFolders: true,
            contentLoader: { _ in try loader(directory) })
    }

    /// Starts watching `directory`, building each value from the bytes the scan read; with
    /// `entersLinkedFolders` false, links to folders are noted but neither walked nor watched.
    init(
        directory: URL,
        configuration: WatchConfiguration,
        logger: Logger,
        entersLinkedFolders: Bool,
        contentLoader loader: @escaping @Sendable (FolderContent) throws -> Value
    ) {
        let (updates, output) = AsyncStream.makeStream(of: Update<Value>.self)
        let (inputs, input) = AsyncStream.makeStream(of: EngineInput.self)
        let session = WatchSession(owner: .shared, input: input, finishOutput: { output.finish() })
        output.onTermination = { _ in session.stopSoon() }  // the consumer went away
        self.directory = directory
        self.session = session
        self.updates = updates
        session.register()
        session.attach(
            Task {
                let engine = WatchEngine(
                    session: session,
                    directory: directory,
                    configuration: configuration,
                    logger: logger,
                    entersLinkedFolders: entersLinkedFolders,
                    loader: loader,
                    output: output
                )
                await engine.run(inputs)
            }
        )
    }

    deinit {
        session.stopSoon()
    }

    /// What the watcher has done so far.
    public var statistics: WatchStatistics {
        session.statistics.withLock { $0 }
    }

    /// Stops watching: ends the updates and returns once the watcher's inotify watches are
    /// removed. A load in progress finishes in the background, but nothing more is yielded.
    public func stop() async {
        await session.stop()
    }

    /// The updates. There is one sequence of updates per watcher: iterate it from one task.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: updates.makeAsyncIterator(), watcher: self)
    }

    /// Iterates the updates, and keeps the watcher alive while doing so.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: AsyncStream<Update<Value>>.Iterator
        private let watcher: FolderWatcher<Value>

        fileprivate init(base: AsyncStream<Update<Value>>.Iterator, watcher: FolderWatcher<Value>) {
            self.base = base
            self.watcher = watcher
        }

        /// The next update, or `nil` once the watcher stopped.
        public mutating func next() async -> Update<Value>? {
            await base.next()
        }

        /// The next update, or `nil` once the watcher stopped.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Update<Value>? {
            await base.next(isolation: actor)
        }
    }
}
