public import AsyncHTTPClient
public import Foundation
import LiveryEtcd

/// Where a daemon on etcd keeps its specs: the members to talk to and the key prefix.
///
/// Each spec file is one key, `PREFIX/specs/<path>`, holding the file's bytes; each publish
/// also writes `PREFIX/history/<time>-<id>` with its time, message and paths, in the same
/// transaction. Each record is one key, `PREFIX/<name>` (the staged rollout is `PREFIX/rollout`),
/// and its reports are under `PREFIX/<name>-reports/<group>/<key>`.
public struct EtcdStoreConfiguration: Sendable {
    /// The members' client URLs; requests fail over from one to the next.
    public var endpoints: [URL]
    /// The key prefix, ending in `/`: `/livery/` by default.
    public var prefix: String
    /// The HTTP client to reach etcd with, owned (and shut down) by the caller: one with a short
    /// connect timeout and no retrying of refused connections, so that a dead member is skipped
    /// at once (`livery serve` makes it so).
    public var http: HTTPClient
    /// How long the watch may send nothing at all before the daemon watches again. A new watch
    /// that etcd does not confirm within this time means etcd cannot be reached: the daemon
    /// reports itself stale and not ready. etcd sends progress notifications on a quiet watch
    /// every `--experimental-watch-progress-notify-interval` (10 minutes unless set); below
    /// this limit they keep the watch from being made again.
    public var watchSilenceLimit: Duration
    /// The etcd user the daemon authenticates as (`--etcd-user`, ``authenticate(user:password:)``);
    /// `nil` when etcd requires none.
    var credentials: EtcdCredentials?
    /// How many publish records the history keeps; each publish removes the oldest beyond it
    /// in its own transaction, never the one it writes (so a limit below 1 acts as 1).
    public var historyLimit: Int

    /// Creates a configuration; a prefix without a trailing `/` gets one.
    public init(
        endpoints: [URL], prefix: String = "/livery/", http: HTTPClient, watchSilenceLimit: Duration = .seconds(10),
        historyLimit: Int = 1000
    ) {
        self.endpoints = endpoints
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.http = http
        self.watchSilenceLimit = watchSilenceLimit
        self.historyLimit = historyLimit
    }

    /// Authenticates as the etcd user `user` (`etcdctl auth enable`).
    package mutating func authenticate(user: String, password: String) {
        credentials = EtcdCredentials(user: user, password: password)
    }

    /// An HTTP client for ``http`` as `livery serve` makes it: a short connect timeout and no
    /// retrying of refused connections, so a dead member is skipped at once; with TLS when any
    /// file is named (an authority for etcd's certificate, a client certificate and its key for
    /// etcd's `--client-cert-auth`), certificate verification always on.
    ///
    /// - Throws: An error naming the file that cannot be read or holds no PEM certificate or key.
    package static func makeHTTPClient(
        caPath: String? = nil, certificatePath: String? = nil, keyPath: String? = nil
    ) throws -> HTTPClient {
        let security = EtcdSecurity(caPath: caPath, certificatePath: certificatePath, keyPath: keyPath)
        return EtcdClient.makeHTTPClient(tls: try security.tlsConfiguration())
    }

    /// The folder of the spec files' keys under the prefix.
    static let specsFolder = "specs/"
    /// What follows a record's name in the prefix of its reports.
    static let reportsSuffix = "-reports/"

    /// The prefix of the spec files' keys.
    var specsPrefix: String { prefix + Self.specsFolder }
    /// The prefix of the publish records' keys.
    var historyPrefix: String { prefix + "history/" }

    /// The key of the record `name`.
    func recordKey(_ name: String) -> String { prefix + name }
    /// The prefix of the reports on the record `name`: `<group>/<key>` after it.
    func reportsPrefix(of name: String) -> String { prefix + name + Self.reportsSuffix }
}
