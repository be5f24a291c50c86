public import Foundation
public import Livery
public import Logging

extension TraitsProvider {
    /// Follows a specs folder: loads every new spec the folder's content turns into, and keeps
    /// the last good one when a change is bad (the error is logged and passed to `onUpdate`).
    ///
    /// It runs in the caller's isolation domain until the calling task is cancelled, so a host
    /// starts it in a task it can cancel:
    ///
    /// ```swift
    /// let following = Task { await provider.follow(directory: specsFolder) }
    /// …
    /// following.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - loader: How the folder is read: the limits, and the allow-list and fetcher of remote
    ///     includes (off by default). Remote includes are fetched in this task, after the
    ///     watcher's scan, on every reload. Its registry is replaced by this provider's: a spec is
    ///     decoded with the trait types of the provider it loads into.
    ///   - onUpdate: called after each load (its report) or each rejected change (the error:
    ///     ``SpecErrors`` with file, line and column, or a ``WatchError``).
    public func follow(
        directory: URL,
        loader: SpecFolderLoader = SpecFolderLoader(),
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger = .discarding,
        onUpdate: ((Result<LoadReport, any Error>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        var loader = loader
        loader.registry = registry
        let watcher = FolderWatcher(directory: directory, loader: loader, configuration: configuration, logger: logger)
        for await update in watcher {
            if Task.isCancelled { break }
            switch await update.completed(by: loader) {
            case .loaded(let spec, let hash):
                do {
                    let report = try load(spec)
                    logger.info("applied specs", metadata: ["livery.hash": "\(hash)", "livery.report": "\(report)"])
                    onUpdate?(.success(report))
                } catch {
                    logger.error(
                        "specs not applied; keeping the last good",
                        metadata: ["livery.hash": "\(hash)", "livery.error": "\(error)"])
                    onUpdate?(.failure(error))
                }
            case .failed(let error):
                logger.error("specs rejected; keeping the last good", metadata: ["livery.error": "\(error)"])
                onUpdate?(.failure(error))
            }
        }
        await watcher.stop()
    }
}
