public import Foundation
public import Livery
public import Logging

extension FolderWatcher where Value == SpecFolderLoader.Stage {
    /// Starts watching a specs folder that `loader` reads; turn each update into a spec with
    /// ``Update/completed(by:)``, which fetches the allowed remote includes.
    ///
    /// The watcher's own scans only read files, and `loader` reads the bytes they read: the
    /// network I/O happens in the task that iterates, never in the watcher (nor on the thread
    /// that owns inotify). Links to folders are not entered, as in ``SpecWatcher``.
    public convenience init(
        directory: URL,
        loader: SpecFolderLoader,
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger = .discarding
    ) {
        self.init(directory: directory, loader: loader, configuration: configuration, logger: logger) { try $0() }
    }
}

extension FolderWatcher {
    /// Starts watching a specs folder that `loader` reads, each read wrapped by `around`, which
    /// runs it and can note what happened around it (another writer at work, say) in its value.
    ///
    /// What `around` throws is yielded as ``Update/failed(_:)``, as for any loader.
    package convenience init(
        directory: URL,
        loader: SpecFolderLoader,
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger = .discarding,
        around: @escaping @Sendable (_ read: () throws -> SpecFolderLoader.Stage) throws -> Value
    ) {
        self.init(
            directory: directory, configuration: configuration, logger: logger, entersLinkedFolders: false,
            contentLoader: { content in
                try around { try loader.read(content.specSources(limits: loader.limits)) }
            })
    }
}

extension Update where Value == SpecFolderLoader.Stage {
    /// The update as a spec: its remote includes fetched (again: every reload re-fetches) and
    /// resolved, or the errors that keep it from loading.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): a folder without remote
    /// includes is complete already, and `provider.follow(directory:)` must not hop off the
    /// provider's actor and back for it on every reload (figure 1 of the benchmarks).
    public nonisolated(nonsending) func completed(by loader: SpecFolderLoader) async -> Update<Spec> {
        switch self {
        case .loaded(let stage, let hash):
            do {
                return .loaded(try await loader.complete(stage), hash)
            } catch {
                return .failed(error)
            }
        case .failed(let error):
            return .failed(error)
        }
    }
}
