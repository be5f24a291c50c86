import Foundation
import Livery
import LiveryConfiguration
import LiveryWatch
import Logging
import ServiceLifecycle

/// A specs folder as a ``SpecConfigProvider``'s source: read with its loader, followed with real
/// inotify through ``LiveryWatch/FolderWatcher``.
struct FolderSpecSource: FollowedSpecSource {
    let directory: URL
    let loader: SpecFolderLoader
    let watch: WatchConfiguration
    let logger: Logger

    func read() async throws -> Spec {
        try await loader.complete(try loader.read(directory))
    }

    func follow(_ update: (Result<Spec, any Error>) -> Void) async {
        let watcher = FolderWatcher(directory: directory, loader: loader, configuration: watch, logger: logger)
        for await change in watcher.cancelOnGracefulShutdown() {
            switch await change.completed(by: loader) {
            case .loaded(let spec, _): update(.success(spec))
            case .failed(let error): update(.failure(error))
            }
        }
        await watcher.stop()
    }
}
