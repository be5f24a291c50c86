public import AsyncHTTPClient
public import Foundation

/// Where a daemon on etcd keeps its specs: the members to talk to and the key prefix.
///
/// Each spec file is one key, `PREFIX/specs/<path>`, holding the file's bytes; each publish
/// also writes `PREFIX/history/<time>-<id>` with its time, message and paths, in the same
/// transaction.
public struct EtcdStoreConfiguration: Sendable {
    /// The members' client URLs; requests fail over from one to the next.
    public var endpoints: [URL]
    /// The key prefix, ending in `/`: `/livery/` by default.
    public var prefix: String
    /// The HTTP client to reach etcd with, owned (and shut down) by the caller; see
    /// ``EtcdClient/makeHTTPClient(tls:)``.
    public var http: HTTPClient
    /// How long the watch may send nothing at all before the daemon watches again. A new watch
    /// that etcd does not confirm within this time means etcd cannot be reached: the daemon
    /// reports itself stale and not ready. etcd sends progress notifications on a quiet watch
    /// every `--experimental-watch-progress-notify-interval` (10 minutes unless set); below
    /// this limit they keep the watch from being made again.
    public var watchSilenceLimit: Duration
    /// The etcd user the daemon authenticates as (`--etcd-user`); `nil` when etcd requires none.
    public var credentials: EtcdCredentials?
    /// How many publish records the history keeps; each publish removes the oldest beyond it
    /// in its own transaction, never the one it writes (so a limit below 1 acts as 1).
    public var historyLimit: Int

    /// Creates a configuration; a prefix without a trailing `/` gets one.
    public init(
        endpoints: [URL], prefix: String = "/livery/", http: HTTPClient, watchSilenceLimit: Duration = .seconds(10),
        historyLimit: Int = 1000, credentials: EtcdCredentials? = nil
    ) {
        self.endpoints = endpoints
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.http = http
        self.watchSilenceLimit = watchSilenceLimit
        self.historyLimit = historyLimit
        self.credentials = credentials
    }

    /// The prefix of the spec files' keys.
    var specsPrefix: String { prefix + "specs/" }
    /// The prefix of the publish records' keys.
    var historyPrefix: String { prefix + "history/" }

    /// The key of the staged rollout (``RolloutRecord`` as JSON).
    var rolloutKey: String { prefix + "rollout" }
    /// The prefix of the rollouts' reports: `<rollout id>/<instance>` after it (``RolloutReport``
    /// as JSON). Its keys start with ``rolloutKey``, so that one watch follows both.
    var rolloutReportsPrefix: String { rolloutKey + "-reports/" }
}
