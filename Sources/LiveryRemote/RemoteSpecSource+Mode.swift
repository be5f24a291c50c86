extension RemoteSpecSource {
    /// How a ``RemoteSpecSource`` learns about changes.
    public struct Mode: Hashable, Sendable, CustomStringConvertible {
        enum Kind: Hashable {
            case longPoll(wait: Duration)
            case serverSentEvents(heartbeat: Duration)
            case poll(interval: Duration)
            case version(wait: Duration)
        }

        let kind: Kind

        /// Long-polls `livery serve`: `GET /v1/spec?wait=30s` with `If-None-Match`, in a loop.
        /// The server holds each request until the bundle changes. The URL is the daemon's base URL.
        public static let longPoll = Mode(kind: .longPoll(wait: .seconds(30)))

        /// Long-polls `livery serve`, asking it to hold each request for up to `wait`
        /// (whole seconds, at least one).
        public static func longPoll(wait: Duration) -> Mode {
            Mode(kind: .longPoll(wait: Swift.max(wait, .seconds(1))))
        }

        /// Follows `livery serve`'s event stream, `GET /v1/events`, resuming with `Last-Event-ID`.
        /// Assumes the daemon's heartbeat of 15 s. The URL is the daemon's base URL.
        public static let serverSentEvents = Mode(kind: .serverSentEvents(heartbeat: .seconds(15)))

        /// Follows `livery serve`'s event stream, expecting a heartbeat at least every
        /// `heartbeat`: a silence of three heartbeats counts as a dead connection.
        public static func serverSentEvents(heartbeat: Duration) -> Mode {
            Mode(kind: .serverSentEvents(heartbeat: heartbeat))
        }

        /// Polls any HTTP server (nginx, S3, a CDN) every `interval` with a conditional GET
        /// (`If-None-Match`, `If-Modified-Since`), comparing body digests when it sends neither
        /// validator. The URL is the spec or bundle file itself, JSON or YAML.
        public static func poll(interval: Duration) -> Mode {
            Mode(kind: .poll(interval: interval))
        }

        /// Follows the version signal of `livery serve`, made to pass through HTTP caches:
        /// `GET /v1/version?since={etag}&wait=30s` answers `{"etag": "…"}` once the version differs
        /// from `since` (else 304 when the wait ends), then `GET /v1/spec/{etag}` fetches that
        /// version's bundle, which never changes. In both URLs the ETag appears without its
        /// quotes. The URL is the daemon's base URL. The default: through a shared cache (nginx,
        /// a CDN) thousands of clients waiting for the same version cost the daemon one request.
        public static let version = Mode(kind: .version(wait: .seconds(30)))

        /// The version signal, asking the server to hold each request for up to `wait` (whole
        /// seconds, at least one).
        public static func version(wait: Duration) -> Mode {
            Mode(kind: .version(wait: Swift.max(wait, .seconds(1))))
        }

        /// The mode and its timing, for logs.
        public var description: String {
            switch kind {
            case .longPoll(let wait): "long-poll (wait \(wait))"
            case .serverSentEvents(let heartbeat): "server-sent events (heartbeat \(heartbeat))"
            case .poll(let interval): "poll (every \(interval))"
            case .version(let wait): "version (wait \(wait))"
            }
        }
    }
}
