public import Foundation
public import Livery
public import Logging

/// Watches a specs folder and yields a new `Spec` each time its content changes.
///
/// ```swift
/// let watcher = SpecWatcher(directory: URL(filePath: "Specs"), logger: logger)
/// for await update in watcher {
///     switch update {
///     case .loaded(let spec, _): try provider.load(spec)
///     case .failed(let error): logger.error("\(error)")  // the provider keeps the last good spec
///     }
/// }
/// ```
public typealias SpecWatcher = FolderWatcher<Spec>

extension FolderWatcher where Value == Spec {
    /// Starts watching a specs folder; each content change is loaded as
    /// `Spec.init(directory:registry:limits:)` would load it with `registry`, from the
    /// bytes the watcher's scan read.
    ///
    /// Like that initialiser, it does not enter links to folders: they are neither walked nor
    /// watched, so a link to a large tree costs nothing. Links to files are followed, and the
    /// folders of their targets watched. A link to a folder that comes or goes reloads the
    /// folder, since includes cannot reach through one.
    public convenience init(
        directory: URL,
        configuration: WatchConfiguration = WatchConfiguration(),
        registry: TraitRegistry = .standard,
        logger: Logger = .discarding
    ) {
        self.init(
            directory: directory, configuration: configuration, logger: logger, entersLinkedFolders: false,
            contentLoader: { content in
                try Spec(sources: content.specSources(limits: .default), registry: registry)
            })
    }
}
