import Foundation
import Livery
import Logging

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
    /// - Parameter onUpdate: called after each load (its report) or each rejected change (the
    ///   error: a ``SpecError`` with file, line and column, or a ``WatchError``).
    public func follow(
        directory: URL,
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger? = nil,
        onUpdate: ((Result<LoadReport, any Error>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let watcher = SpecWatcher(directory: directory, configuration: configuration, logger: logger)
        for await update in watcher {
            if Task.isCancelled { break }
            switch update {
            case .loaded(let spec, let hash):
                do {
                    let report = try load(spec)
                    logger?.info("applied specs \(hash): \(report)")
                    onUpdate?(.success(report))
                } catch {
                    logger?.error("specs \(hash) not applied; keeping the last good: \(error)")
                    onUpdate?(.failure(error))
                }
            case .failed(let error):
                logger?.error("specs rejected; keeping the last good: \(error)")
                onUpdate?(.failure(error))
            }
        }
        await watcher.stop()
    }
}
