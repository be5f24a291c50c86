public import Foundation
public import Livery
public import Logging

extension TraitsProvider {
    /// Follows a remote spec and loads each new version into this provider, until the calling
    /// task is cancelled. The remote twin of following a local folder.
    ///
    /// ```swift
    /// let task = Task { await provider.follow(url: daemon, logger: logger) }  // on the main actor
    /// // …
    /// task.cancel()
    /// ```
    ///
    /// It runs in the caller's isolation domain (the provider is not `Sendable`): specs are
    /// fetched and parsed by a ``RemoteSpecSource`` elsewhere and loaded here. A load that fails
    /// (a target lacks a capability, a trait throws) is rolled back by the provider and logged; a
    /// fetch or parse failure is logged. Either way the last good spec stays applied.
    ///
    /// With ``RemoteSpecSource/Configuration/unknownTraits`` set to
    /// ``Livery/UnknownTraitPolicy/skipIdentifier``, a spec that uses trait types this provider's
    /// registry lacks is applied to every other identifier; the skipped ones keep their traits,
    /// are in the report, logged, and sent to the daemon in the `Livery-Client` header.
    ///
    /// - Parameters:
    ///   - url: The daemon's base URL, or for ``RemoteSpecSource/Mode/poll(interval:)`` the spec file's URL.
    ///   - environment: The daemon's environment to follow (`/v1/environments/{environment}/…`);
    ///     `nil`, the default, follows its default environment. It replaces the configuration's
    ///     ``RemoteSpecSource/Configuration/environment``.
    ///   - mode: How to learn about changes; the version signal of `livery serve` by default.
    ///   - configuration: Timeouts, retries, limits and headers.
    ///   - readToken: The daemon's read token (`livery serve --read-token-file`), when it
    ///     requires one; it replaces the configuration's ``RemoteSpecSource/Configuration/readToken``.
    ///   - logger: Where to log loads and failures; nothing is logged without one.
    ///   - onUpdate: Called, in the caller's isolation, after each update: with the load's
    ///     report, or with the error (a failed load, a fetch failure or a spec that did not parse).
    ///   - appliedVersion: Where each load is recorded for the daemon; keep it to report a
    ///     problem with the version applied (``AppliedVersion/reportProblem(_:)``).
    ///   - isolation: The caller's isolation, where the provider lives; inferred.
    public func follow(
        url: URL,
        environment: String? = nil,
        mode: RemoteSpecSource.Mode = .version,
        configuration: RemoteSpecSource.Configuration = RemoteSpecSource.Configuration(),
        readToken: BearerToken? = nil,
        logger: Logger = .discarding,
        onUpdate: ((Result<LoadReport, any Error>) -> Void)? = nil,
        appliedVersion: AppliedVersion = AppliedVersion(),
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await follow(
            urls: [url], environment: environment, mode: mode, configuration: configuration, readToken: readToken,
            logger: logger,
            onUpdate: onUpdate, appliedVersion: appliedVersion, isolation: isolation)
    }

    /// Follows a remote spec served by several endpoints, moving on to the next when one fails
    /// (see ``RemoteSpecSource/init(urls:mode:configuration:registry:logger:appliedVersion:)``),
    /// and loads each new version into this provider, until the calling task is cancelled.
    ///
    /// Each version applied is recorded, so the source's `Livery-Client` header reports it.
    /// The parameters are those of `follow(url:…)`, with `urls` (at least one) for `url`.
    public func follow(
        urls: [URL],
        environment: String? = nil,
        mode: RemoteSpecSource.Mode = .version,
        configuration: RemoteSpecSource.Configuration = RemoteSpecSource.Configuration(),
        readToken: BearerToken? = nil,
        logger: Logger = .discarding,
        onUpdate: ((Result<LoadReport, any Error>) -> Void)? = nil,
        appliedVersion: AppliedVersion = AppliedVersion(),
        isolation: isolated (any Actor)? = #isolation
    ) async {
        var configuration = configuration
        if let readToken { configuration.readToken = readToken }
        if let environment { configuration.environment = environment }
        let source = RemoteSpecSource(
            urls: urls, mode: mode, configuration: configuration, registry: registry, logger: logger,
            appliedVersion: appliedVersion)
        for await update in source {
            switch update {
            case .loaded(let spec, let version):
                let metadata: Logger.Metadata = [
                    "livery.remote.version": "\(version)",
                    "livery.remote.url": "\(version.endpoint?.absoluteString ?? "cache")",
                ]
                do {
                    let report = try load(spec)
                    let skipped = report.skippedIdentifiers.map(\.identifier)
                    source.appliedVersion.record(version, skipped: skipped)
                    var applied = metadata
                    if !skipped.isEmpty { applied["livery.skipped"] = "\(skipped.joined(separator: ", "))" }
                    logger.info("applied spec", metadata: applied)
                    onUpdate?(.success(report))
                } catch {
                    source.appliedVersion.recordRefused(version)
                    logger.error(
                        "spec not applied, keeping the last good one",
                        metadata: metadata.merging(["livery.remote.error": "\(error)"]) { $1 })
                    onUpdate?(.failure(error))
                }
            case .failed(let error):
                // The source has logged it already; the provider keeps the last good spec.
                onUpdate?(.failure(error))
            }
        }
    }
}
