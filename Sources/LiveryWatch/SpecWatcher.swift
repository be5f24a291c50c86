import Foundation
import Livery
import Logging

/// Watches a specs folder and yields a new ``Livery/Spec`` each time its content changes.
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
    /// ``Livery/Spec/init(directory:registry:limits:)`` would load it, from the bytes the
    /// watcher's scan read.
    public convenience init(
        directory: URL,
        configuration: WatchConfiguration = WatchConfiguration(),
        logger: Logger? = nil
    ) {
        self.init(directory: directory, configuration: configuration, logger: logger, contentLoader: { content in
            try Spec(sources: content.specSources(limits: .default))
        })
    }
}
