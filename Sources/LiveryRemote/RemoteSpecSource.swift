public import Foundation
public import Livery
public import Logging

/// Follows a spec over HTTP and yields a ``RemoteUpdate`` each time it really changes.
///
/// ```swift
/// let source = RemoteSpecSource(url: URL(string: "http://127.0.0.1:7878")!, logger: logger)
/// for await update in source {
///     switch update {
///     case .loaded(let spec, _): try provider.load(spec)
///     case .failed(let error): logger.error("\(error)")  // the provider keeps the last good spec
///     }
/// }
/// ```
///
/// Four modes (see ``Mode``): the cacheable version signal of `livery serve` (the default), its
/// long-poll, its server-sent events, or polling any HTTP server with conditional GETs. In
/// every mode:
///
/// - A spec is published only when its content changed: never the same ETag or the same bytes
///   twice in a row, however often the server repeats them.
/// - A non-200 body is never applied; a body that does not parse is a ``RemoteUpdate/failed(_:)``
///   carrying the `SpecError` (its file is the URL, with line and column), and nothing replaces
///   the last good spec, which stays with the consumer.
/// - While the server is unreachable, times out or answers 5xx, every failed attempt is published
///   as a failure and retried after an exponential backoff with full jitter (``Backoff``), reset
///   by the first success; the source recovers by itself, across daemon restarts too. A server
///   shedding load (503 or 429 with `Retry-After` in seconds, as the daemon answers a long-poll
///   beyond its held-request limits) is not a failure: the request is retried after the time it
///   names, at most the backoff's cap, with no failure published and the backoff unchanged.
/// - With several endpoints (`init(urls:mode:configuration:registry:logger:)`), a failed
///   request moves on to the next one at once, keeping the validators, so an unchanged bundle
///   is a 304 there, not a second download; the backoff applies once every endpoint has failed
///   in a row. ``RemoteVersion/endpoint`` says which one served each spec.
/// - With a ``Configuration/cacheDirectory``, the last spec the consumer applied (recorded in
///   ``appliedVersion``) is kept there and published first at the next start, before the
///   network answers; one that parses but is not applied never replaces it. A corrupt or truncated
///   file is published as a failure (a ``BundleCacheError``) and never applied.
/// - Every request carries a `Livery-Client` header (`LiveryClientHeader`): the
///   ``Configuration/identity`` and what ``appliedVersion`` records, with the identifiers the
///   consumer skipped.
/// - A trait type the ``registry`` does not know rejects the spec, unless
///   ``Configuration/unknownTraits`` is `UnknownTraitPolicy.skipIdentifier`: then the
///   spec is published with the identifiers that use it skipped.
///
/// Each iteration starts its own session with one `HTTPClient`. Cancelling the iterating task
/// (or dropping the iterator) cancels the request in flight, shuts the client down and ends the
/// sequence. The updates are buffered without bound; there are only as many as server changes.
public struct RemoteSpecSource: AsyncSequence, Sendable {
    /// Each update.
    public typealias Element = RemoteUpdate
    /// Problems are updates, never thrown.
    public typealias Failure = Never

    /// The endpoints in the order they are tried: spec files (``Mode/poll(interval:)``) or
    /// daemons' base URLs (the other modes). Never empty.
    public let endpoints: [URL]
    /// The first endpoint.
    public var url: URL { endpoints[0] }
    /// What the consumer has applied, reported in the `Livery-Client` header.
    public let appliedVersion: AppliedVersion
    /// How changes are learnt about.
    public let mode: Mode
    /// Timeouts, retries, limits and headers.
    public let configuration: Configuration
    /// The trait types specs are decoded with.
    public let registry: TraitRegistry
    let logger: Logger

    /// Describes a source; nothing is fetched until it is iterated.
    ///
    /// - Parameters:
    ///   - url: For ``Mode/poll(interval:)`` the full URL of a spec or bundle file (JSON, or YAML
    ///     by `Content-Type` or a `.yaml`/`.yml` extension); for the other modes the daemon's base
    ///     URL, such as `http://127.0.0.1:7878`.
    ///   - mode: ``Mode/version`` by default.
    ///   - configuration: Timeouts, retries, limits and headers.
    ///   - registry: The trait types specs may use; `TraitRegistry.standard` by default.
    ///   - logger: Where to log requests, loads and failures; nothing is logged without one.
    public init(
        url: URL,
        mode: Mode = .version,
        configuration: Configuration = Configuration(),
        registry: TraitRegistry = .standard,
        logger: Logger = .discarding
    ) {
        self.init(urls: [url], mode: mode, configuration: configuration, registry: registry, logger: logger)
    }

    /// Describes a source with several endpoints serving the same spec, tried in turn when one
    /// fails; nothing is fetched until it is iterated.
    ///
    /// - Parameters:
    ///   - urls: The endpoints, in the order they are tried; at least one. Each is what `url`
    ///     is for ``init(url:mode:configuration:registry:logger:)``.
    ///   - mode: ``Mode/version`` by default.
    ///   - configuration: Timeouts, retries, limits, headers, identity and cache.
    ///   - registry: The trait types specs may use; `TraitRegistry.standard` by default.
    ///   - logger: Where to log requests, loads and failures; nothing is logged without one.
    ///   - appliedVersion: Where the consumer records what it applied; a new one by default.
    public init(
        urls: [URL],
        mode: Mode = .version,
        configuration: Configuration = Configuration(),
        registry: TraitRegistry = .standard,
        logger: Logger = .discarding,
        appliedVersion: AppliedVersion = AppliedVersion()
    ) {
        precondition(!urls.isEmpty, "a RemoteSpecSource needs at least one URL")
        self.endpoints = urls
        self.mode = mode
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        self.appliedVersion = appliedVersion
    }

    /// Reports that the version applied now misbehaves in this program (see
    /// ``AppliedVersion/reportProblem(_:)``): during a staged rollout of that version, the
    /// daemon counts it and may withdraw the version from every client.
    @discardableResult
    public func reportProblem(_ message: String) -> Bool {
        appliedVersion.reportProblem(message)
    }

    /// Starts a session: fetching begins at once, in a task of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        let (updates, output) = AsyncStream.makeStream(of: RemoteUpdate.self)
        let task = Task { [self] in
            await FetchSession(source: self, output: output).run()
        }
        // The consumer cancelled its task or dropped the iterator: stop fetching.
        output.onTermination = { _ in task.cancel() }
        return AsyncIterator(base: updates.makeAsyncIterator())
    }

    /// Iterates the updates of one session.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Each update.
        public typealias Element = RemoteUpdate
        /// Problems are updates, never thrown.
        public typealias Failure = Never

        private var base: AsyncStream<RemoteUpdate>.Iterator

        fileprivate init(base: AsyncStream<RemoteUpdate>.Iterator) {
            self.base = base
        }

        /// The next update, or `nil` once the iterating task is cancelled.
        public mutating func next() async -> RemoteUpdate? {
            await base.next()
        }

        /// The next update, or `nil` once the iterating task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> RemoteUpdate? {
            await base.next(isolation: actor)
        }
    }
}
