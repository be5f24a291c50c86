public import Foundation
public import Livery
public import LiveryRemote
public import Logging

extension SpecConfigProvider {
    /// A provider of the values a `livery serve` daemon (or, polling, any HTTP server) serves:
    /// waits for the first spec; run it as a service to follow the daemon's changes.
    ///
    /// - Parameters:
    ///   - url: The daemon's base URL, or for `RemoteSpecSource.Mode.poll(interval:)`
    ///     the spec file's URL.
    ///   - theme: The theme whose values the provider gives; `nil` for the base values.
    ///   - mode: How the client learns of a new version (the version signal by default).
    ///   - configuration: The client's waits, back-off, cache and identity.
    ///   - registry: The program's trait types: a spec whose traits do not decode is refused whole.
    ///   - providerName: The name swift-configuration shows for this provider.
    ///   - logger: Where the provider and its client log.
    /// - Throws: the first fetch's failure (a `RemoteError` or a located
    ///   `SpecError`), or a `SpecError` when the values do not resolve.
    public convenience init(
        url: URL, theme: String? = nil, mode: RemoteSpecSource.Mode = .version,
        configuration: RemoteSpecSource.Configuration = RemoteSpecSource.Configuration(),
        registry: TraitRegistry = .standard, providerName: String = "LiverySpec",
        logger: Logger = Logger(label: "livery.configuration") { _ in SwiftLogNoOpLogHandler() }
    ) async throws {
        let source = RemoteSpecSource(
            url: url, mode: mode, configuration: configuration, registry: registry, logger: logger)
        let (spec, version) = try await Self.first(of: source)
        try self.init(spec: spec, theme: theme, providerName: providerName, source: .remote(source), logger: logger)
        source.appliedVersion.record(version)
    }

    /// The first spec `source` yields and its version, or its first failure.
    static func first(of source: RemoteSpecSource) async throws -> (Spec, RemoteVersion) {
        for await update in source {
            switch update {
            case .loaded(let spec, let version): return (spec, version)
            case .failed(let error): throw error
            }
        }
        throw CancellationError()
    }

    /// Reads the source again now: the folder, or one fetch from the daemon. Loads what it read
    /// when it is good; otherwise records and throws the error, and the last good values stay.
    func refresh() async throws {
        let spec: Spec
        var applied: (source: RemoteSpecSource, version: RemoteVersion)?
        do {
            switch source {
            case .fixed: return
            case .followed(let followed): spec = try await followed.read()
            case .remote(let remote):
                let version: RemoteVersion
                (spec, version) = try await Self.first(of: remote)
                applied = (remote, version)
            }
        } catch {
            reject(error)
            throw error
        }
        try load(spec)
        // Recorded once loaded: the Livery-Client header and the offline cache follow what applied.
        if let applied { applied.source.appliedVersion.record(applied.version) }
    }
}
