import AsyncHTTPClient
import Foundation
public import Livery
public import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Fetches remote includes over HTTP: the `RemoteIncludeFetcher` of `livery serve`,
/// `watch` and `validate`.
///
/// Every request is bounded: redirects are not followed (a 3xx is a failure, so an allowed
/// server cannot bounce the daemon to an address the allow-list does not enable), the whole
/// exchange has a deadline (``Configuration/timeout``), a body over
/// `ReaderLimits.maxBytes` is refused (from `Content-Length` before reading anything,
/// else as soon as the limit is passed), and only a 2xx body is used. The format comes from the
/// URL's extension (`.json`, `.yaml`, `.yml`), else from the `Content-Type`.
///
/// Each fetch asks again (a reload sees a changed document), conditionally: a document that
/// came with an `ETag` is asked for with `If-None-Match`, and a 304 reuses it.
public final class HTTPIncludeFetcher: RemoteIncludeFetcher {
    /// The limits of each fetch.
    public struct Configuration: Sendable {
        /// The longest a fetch may take, connecting and reading the whole body included. 5 s.
        public var timeout: Duration
        /// Bounds on the documents; `ReaderLimits.maxBytes` caps each body.
        public var limits: ReaderLimits

        /// Creates a configuration; every parameter has the default described on its property.
        public init(timeout: Duration = .seconds(5), limits: ReaderLimits = .default) {
            self.timeout = max(timeout, .milliseconds(1))
            self.limits = limits
        }
    }

    /// A document that came with an `ETag`, kept for conditional requests.
    private struct Validated {
        var etag: String
        var data: Data
        var format: SpecFormat
    }

    /// The limits of each fetch.
    public let configuration: Configuration
    private let logger: Logger
    private let validated = Mutex<[RemoteIncludeURL: Validated]>([:])

    /// Creates a fetcher; it holds no connection between fetches, so it needs no shutdown.
    public init(configuration: Configuration = Configuration(), logger: Logger = .discarding) {
        self.configuration = configuration
        self.logger = logger
    }

    /// The document at `url`, or why there is none (`404 Not Found`, `no complete answer within 5 seconds`).
    public func fetch(_ url: RemoteIncludeURL) async -> FetchedInclude {
        // One client per fetch: remote includes are fetched on a reload, not per request, and a
        // client that lives only as long as its fetch cannot outlive the process's shutdown.
        var http = HTTPClient.Configuration(redirectConfiguration: .disallow)
        http.timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(configuration.timeout), read: TimeAmount(configuration.timeout))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
        let result: FetchedInclude
        do {
            result = try await withDeadline { try await self.exchange(url, client: client) }
        } catch {
            result = .failed(reason(for: error, url: url))
        }
        do {
            try await client.shutdown()
        } catch {
            logger.warning(
                "could not shut the HTTP client down",
                metadata: ["livery.include.url": "\(url)", "livery.error": "\(error)"])
        }
        if case .failed(let reason) = result {
            logger.warning(
                "cannot fetch remote include", metadata: ["livery.include.url": "\(url)", "livery.reason": "\(reason)"])
        }
        return result
    }

    /// One GET, read whole within the limits.
    private func exchange(_ url: RemoteIncludeURL, client: HTTPClient) async throws -> FetchedInclude {
        var request = HTTPClientRequest(url: url.description)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/yaml, application/json;q=0.9, */*;q=0.1")
        request.headers.add(name: "User-Agent", value: "livery")
        let cached = validated.withLock { $0[url] }
        if let cached { request.headers.add(name: "If-None-Match", value: cached.etag) }
        let response = try await client.execute(
            request, deadline: .now() + TimeAmount(configuration.timeout), logger: logger)
        let status = response.status
        if status.code == 304, let cached { return .document(cached.data, cached.format) }
        guard (200..<300).contains(status.code) else {
            let redirect =
                (300..<400).contains(status.code) ? " (redirects are not followed; include the final URL)" : ""
            return .failed("\(status.code) \(status.reasonPhrase)\(redirect)")
        }
        let limit = configuration.limits.maxBytes
        if let length = response.headers.first(name: "Content-Length").flatMap({ Int($0) }), length > limit {
            return .failed("the document is \(length) bytes; the limit is \(limit) bytes")
        }
        let contentType = response.headers.first(name: "Content-Type")
        guard let format = Self.format(of: url, contentType: contentType) else {
            return .failed(
                "the URL has no .json, .yaml or .yml extension and the Content-Type '\(contentType ?? "")' is neither JSON nor YAML"
            )
        }
        let body = Data(try await response.body.collect(upTo: limit).readableBytesView)
        validated.withLock { documents in
            documents[url] = response.headers.first(name: "ETag").map {
                Validated(etag: $0, data: body, format: format)
            }
        }
        return .document(body, format)
    }

    /// Runs `work` but gives up after the timeout, whatever the client's own timeouts do while
    /// a body trickles in.
    private func withDeadline<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = configuration.timeout
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw HTTPClientError.deadlineExceeded
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// The format from the URL's extension, else from the media type.
    static func format(of url: RemoteIncludeURL, contentType: String?) -> SpecFormat? {
        if let format = SpecPath.format(of: url.path) { return format }
        let mediaType =
            contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if mediaType.hasSuffix("yaml") { return .yaml }  // application/yaml, text/x-yaml, …
        if mediaType.hasSuffix("json") { return .json }  // application/json, application/…+json
        return nil
    }

    /// A few words on why a fetch failed.
    private func reason(for error: any Error, url: RemoteIncludeURL) -> String {
        if error is NIOTooManyBytesError {
            return "the document is larger than the limit of \(configuration.limits.maxBytes) bytes"
        }
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout {
            return "no complete answer within \(configuration.timeout)"
        }
        return RemoteError.wrapping(error, url: url.description).message
    }
}
