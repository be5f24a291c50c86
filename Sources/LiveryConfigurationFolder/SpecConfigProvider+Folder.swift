public import Foundation
public import Livery
public import LiveryConfiguration
public import LiveryWatch
public import Logging

extension SpecConfigProvider {
    /// A provider of a specs folder's values: reads the folder now; run it as a service to follow
    /// the folder's changes (real inotify, through ``LiveryWatch/FolderWatcher``).
    ///
    /// - Parameters:
    ///   - directory: The specs folder.
    ///   - theme: The theme to start with (nil: none).
    ///   - loader: The registry (the program's own trait types: a spec whose traits do not decode
    ///     is refused as a whole), limits and remote includes.
    /// - Throws: ``Livery/SpecErrors`` or ``Livery/SpecError``, located, when the folder does not
    ///   load or its values do not resolve.
    public convenience init(
        directory: URL, theme: String? = nil, loader: SpecFolderLoader = SpecFolderLoader(),
        watch: WatchConfiguration = WatchConfiguration(), providerName: String = "LiverySpec",
        logger: Logger = Logger(label: "livery.configuration") { _ in SwiftLogNoOpLogHandler() }
    ) async throws {
        let folder = FolderSpecSource(directory: directory, loader: loader, watch: watch, logger: logger)
        let spec = try await folder.read()
        try self.init(spec: spec, theme: theme, providerName: providerName, source: .followed(folder), logger: logger)
    }
}
