import AsyncHTTPClient
public import Foundation
public import Livery
package import NIOSSL

extension RemoteSpecSource {
    /// Timeouts, retries, limits and extra headers of a ``RemoteSpecSource``.
    public struct Configuration: Sendable {
        /// How long connecting may take. The HTTP client retries a refused connection until
        /// then, so an unreachable server's failure surfaces once this has passed.
        public var connectTimeout: Duration
        /// How long a poll may wait for data (between bytes). Long-polls wait their `wait` plus
        /// ``longPollMargin``; event streams three heartbeats.
        public var readTimeout: Duration
        /// How much longer than its `wait` a long-poll may take before it counts as dead.
        public var longPollMargin: Duration
        /// The delays between retries while the server is unreachable or failing.
        public var backoff: Backoff
        /// The largest body (and event) accepted, and the limits specs are read with.
        public var limits: ReaderLimits
        /// Headers sent with every request, such as `Authorization` for a private bucket.
        public var headers: [String: String]
        /// Who this client is, sent in the `Livery-Client` header of every request together with
        /// the version applied (``RemoteSpecSource/appliedVersion``); this process by default.
        public var identity: ClientIdentity
        /// The folder of the offline cache: each spec the consumer applies (records in
        /// ``RemoteSpecSource/appliedVersion``) is kept there (atomically) with its validators,
        /// and the next start applies it before the network answers and sends its ETag, so an
        /// unchanged bundle is a 304. A spec that parses but is not applied never replaces it.
        /// `nil` (the default) keeps no cache. One source per folder.
        public var cacheDirectory: URL?
        /// Whether a spec with a trait type the ``RemoteSpecSource/registry`` does not know is
        /// rejected whole (`UnknownTraitPolicy.rejectSpec`, the default) or published
        /// with the identifiers that use it skipped (`UnknownTraitPolicy.skipIdentifier`),
        /// which a provider then keeps on their last good traits. Every other error rejects the
        /// spec under both.
        public var unknownTraits: UnknownTraitPolicy
        /// The daemon's read token (`livery serve --read-token-file`), sent as
        /// `Authorization: Bearer <token>` with every request; `nil`, the default, sends none.
        /// It takes the place of an `Authorization` in ``headers``.
        public var readToken: BearerToken?
        /// A PEM file of the certificate authorities to trust for `https` (like curl's
        /// `--cacert`), such as a private CA that signed the daemon's `--tls-cert`; `nil`, the
        /// default, trusts the system's. The file is read when a session starts.
        public var trustedCertificatesPath: String?
        /// The environment of `livery serve` to follow (its routes under
        /// `/v1/environments/{environment}/`); `nil`, the default, follows the daemon's default
        /// environment (`/v1/…`).
        public var environment: String?
        /// Waits between requests; `Task.sleep(for:)` by default. Tests inject a recorder. It must
        /// throw when the task is cancelled.
        public var sleep: @Sendable (Duration) async throws -> Void

        /// Creates a configuration; every parameter has a sensible default.
        public init(
            connectTimeout: Duration = .seconds(5),
            readTimeout: Duration = .seconds(30),
            longPollMargin: Duration = .seconds(10),
            backoff: Backoff = Backoff(),
            limits: ReaderLimits = .default,
            headers: [String: String] = [:],
            identity: ClientIdentity = .currentProcess(),
            cacheDirectory: URL? = nil,
            unknownTraits: UnknownTraitPolicy = .rejectSpec,
            trustedCertificatesPath: String? = nil,
            readToken: BearerToken? = nil,
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) {
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.longPollMargin = longPollMargin
            self.backoff = backoff
            self.limits = limits
            self.headers = headers
            self.identity = identity
            self.cacheDirectory = cacheDirectory
            self.unknownTraits = unknownTraits
            self.trustedCertificatesPath = trustedCertificatesPath
            self.readToken = readToken
            self.sleep = sleep
        }

        /// The read timeout for `mode`: the longest silence before a connection counts as dead.
        func readTimeout(for mode: Mode) -> Duration {
            switch mode.kind {
            case .longPoll(let wait), .version(let wait): wait + longPollMargin
            case .serverSentEvents(let heartbeat): heartbeat * 3
            case .poll: readTimeout
            }
        }
    }
}

extension TLSConfiguration {
    /// A client configuration that trusts the certificate authorities of the PEM file at `path`
    /// (instead of the system's) when it is given, and the system's otherwise; TLS 1.2 or later.
    package static func livery(trustingCertificatesAt path: String?) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let path { configuration.trustRoots = .file(path) }
        return configuration
    }
}
