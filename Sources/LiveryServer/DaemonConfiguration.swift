public import Foundation
public import Livery
@_spi(LiveryInternal) import LiveryHTTP
public import LiveryWatch

/// Everything `livery serve` can be told: where the specs are, where to listen, and the limits.
public struct DaemonConfiguration: Sendable {
    /// The specs folder to watch and to write pushes into, unless ``etcd`` is set.
    public var directory: URL
    /// Keep the specs in etcd instead of ``directory``: several daemons then share one spec
    /// set. `nil` (a folder) by default.
    public var etcd: EtcdStoreConfiguration?
    /// Serve each subfolder of this folder whose name is an environment name
    /// (`[a-z][a-z0-9-]{0,62}`) as the environment of that name, instead of ``directory`` as the
    /// one environment `default` (`--environments ROOT`). Ignored with ``etcd``, whose
    /// environments live under its prefix. `nil` by default.
    public var environmentsRoot: URL?
    /// The environment the routes without one (`/v1/spec`…) address (`--default-environment`);
    /// `nil`, the default, is `default`.
    public var defaultEnvironment: String?
    /// The address to listen on; `127.0.0.1` by default, so only this machine can reach it.
    public var host: String
    /// The port; 0 asks the system for a free one (see ``LiveryDaemon/listeningPort()``).
    public var port: Int
    /// The largest push body, in bytes. 1 MiB by default.
    public var maxBodyBytes: Int
    /// The longest request target (path and query), in bytes; longer ones get 414. 8 KiB.
    public var maxURIBytes: Int
    /// The largest request head's fields (names, values, 4 bytes of framing each); larger ones
    /// get 431. 16 KiB. Far beyond either limit (4×) the parser stops reading and answers 400
    /// with `Connection: close`, so a client cannot make the daemon buffer more than that.
    public var maxHeaderBytes: Int
    /// How long a connection may stay silent before it is closed: a client that opens a
    /// connection and sends nothing, or half a request head and then stalls (slowloris), or a
    /// keep-alive connection with no next request. Long-polls and event streams are answers in
    /// progress and are not cut. 30 s by default; `nil` never closes.
    public var idleTimeout: Duration?
    /// How long a request may take to arrive whole, from the end of its head to the end of its
    /// body; past it the client gets 408 and the connection closes. The idle timeout alone would
    /// let a client trickle a body a byte at a time for ever. 30 s by default (a 1 MiB push
    /// then needs 35 kB/s); `nil` sets no deadline.
    public var requestTimeout: Duration?
    /// Refuse every write (PUT, DELETE, POST) with 403, even with the right token: the folder is
    /// only served, edited by other means (a deployment, a ConfigMap). `false` by default.
    public var readOnly: Bool
    /// How often an event stream sends a `: heartbeat` comment so proxies keep it open. 15 s.
    public var heartbeatInterval: Duration
    /// The reconnection delay an event stream suggests to clients (`retry:`). 2 s.
    public var retryHint: Duration
    /// How the watcher coalesces file-system events.
    public var watch: WatchConfiguration
    /// Bounds on each spec file.
    public var readerLimits: ReaderLimits
    /// The trait types specs may use.
    public var registry: TraitRegistry
    /// The URL prefixes remote includes may name (`--allow-include`); empty, the default, turns
    /// remote includes off, so neither a file on disk nor a push can make the daemon fetch a URL.
    public var allowedIncludes: IncludeAllowList
    /// The certificate and key to speak HTTPS with (`--tls-cert`, `--tls-key`); `nil`, the
    /// default, speaks plain HTTP. Both files are read again when either changes on disk.
    public var tls: TLSFiles?
    /// What fetches the allowed remote includes (`LiveryRemote`'s `HTTPIncludeFetcher`): the
    /// daemon has no HTTP client of its own. Each reload of the folder fetches them again.
    public var includeFetcher: (any RemoteIncludeFetcher)?
    /// Whether to serve Livery Studio at `/studio/`: `true` or `false` as asked (`--studio`,
    /// `--no-studio`); `nil`, the default, serves it on a loopback ``host`` or with ``tls``, on
    /// any address (see ``servesStudio``).
    public var studio: Bool?
    /// The web origins whose pages may read the stylesheet, the browser client and the version
    /// signal (`--allow-origin`); `CrossOriginPolicy.none`, the default, sends no
    /// CORS field.
    public var allowedOrigins: CrossOriginPolicy = .none

    // Hostile clients: who may ask (``RequestAdmission``), and how much (``ConnectionLimits``).

    /// Names accepted in a request's `Host` besides `localhost`, `127.0.0.1` and `[::1]`
    /// (`--allowed-host`): the names a proxy or a real deployment reaches the daemon by. On a
    /// loopback ``host`` other names get 421; elsewhere any name is accepted unless some are
    /// given here. Empty by default.
    public var allowedHosts: [String] = []
    /// A read key on every environment, named `read-token-file` (`--read-token-file`); giving
    /// one requires a key to read, as ``requireReadKey`` does. `nil` by default.
    public var readToken: BearerToken?
    /// Whether every route but `/healthz`, `/readyz` and the studio's own files needs a key of
    /// scope `read` (`--require-read-key`). `false`, the default, leaves reads open to whoever
    /// reaches the daemon.
    public var requireReadKey = false
    /// Bounds on connections and held requests (long-polls, event streams).
    public var connectionLimits = ConnectionLimits()
    /// OpenFeature evaluations (OFREP's `POST …/ofrep/v1/evaluate/flags…`) one IP address may
    /// ask for each second, and in one burst (`--max-evaluations-per-peer`); more get `429`
    /// with `Retry-After`. 1,000 by default: a service behind one address that reads five
    /// flags for each of its 200 requests a second, through a server-side provider that posts
    /// once per flag. Behind a proxy every client has the proxy's address: give it what all
    /// clients together may ask, and limit per client in the proxy (nginx's `limit_req`).
    public var maxEvaluationsPerPeer = 1000
    /// The clock the evaluation rate is kept on: the continuous clock; a test's, moved by hand.
    package var evaluationClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }

    /// The base URLs of the shared caches in front of the daemon, as its clients reach them
    /// (`--warm-front`): for each new version signal the daemon asks each for the new version's
    /// `GET /v1/spec/{etag}`, then publishes the signal to the waits the front holds
    /// (`POST /livery/signal?channel=…`, as `deploy/nginx/livery.conf` takes it), for at most
    /// 500 ms together, so that the fleet behind the front learns of it at once and finds the
    /// bundle cached. Empty by default.
    public var warmFronts: [URL] = []

    // Staged rollouts.

    /// Where the daemon keeps its own state, the running rollout (`--state-dir`); `nil`, the
    /// default, is `$XDG_STATE_HOME/livery` (else `~/.local/state/livery`). One file per specs
    /// folder (`rolloutStateFile`), and its history (``historyLimit``). With ``etcd`` nothing is
    /// kept here.
    public var stateDirectory: URL?
    /// How many publishes a folder's history keeps (`--history-limit`), the oldest removed
    /// first; etcd's is ``EtcdStoreConfiguration/historyLimit``. 1000 by default.
    public var historyLimit = 1000
    /// When the daemon aborts a rollout by itself (`--abort-when`): the first refusal or problem
    /// report of the cohort by default.
    public var abortWhen: AbortThreshold = .first

    /// Signed delivery (`--signing`): the spec set served as a TUF repository at `/v1/tuf/`;
    /// `nil`, the default, serves none.
    package var signing: DaemonSigning?

    // Schedules.

    /// How late a scheduled step may still run when the daemons were all down at its time
    /// (`--schedule-grace`): later, it is marked missed and never runs. One hour by default.
    public var scheduleGrace: Duration = .seconds(3600)
    /// The clock schedules run by: the wall clock; a test gives one it moves by hand.
    package var scheduleClock: any ScheduleClock = WallClock()

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        directory: URL,
        host: String = "127.0.0.1",
        port: Int = 7878,
        maxBodyBytes: Int = 1024 * 1024,
        maxURIBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        idleTimeout: Duration? = .seconds(30),
        requestTimeout: Duration? = .seconds(30),
        readOnly: Bool = false,
        heartbeatInterval: Duration = .seconds(15),
        retryHint: Duration = .seconds(2),
        watch: WatchConfiguration = WatchConfiguration(),
        readerLimits: ReaderLimits = .default,
        registry: TraitRegistry = .standard,
        allowedIncludes: IncludeAllowList = .none,
        includeFetcher: (any RemoteIncludeFetcher)? = nil,
        etcd: EtcdStoreConfiguration? = nil,
        studio: Bool? = nil,
        tls: TLSFiles? = nil
    ) {
        self.directory = directory
        self.etcd = etcd
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxURIBytes = maxURIBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.readOnly = readOnly
        self.heartbeatInterval = heartbeatInterval
        self.retryHint = retryHint
        self.watch = watch
        self.readerLimits = readerLimits
        self.registry = registry
        self.allowedIncludes = allowedIncludes
        self.includeFetcher = includeFetcher
        self.studio = studio
        self.tls = tls
    }
}

extension DaemonConfiguration {
    /// The file that keeps the rollout of ``directory``: in ``stateDirectory``, named after a
    /// hash of the folder's path, so daemons of different folders never share one.
    package var rolloutStateFile: URL { stateFile(ofRecord: RolloutRecordStore.recordName, folder: directory) }

    /// The file that keeps the record `name` of the specs folder `directory`:
    /// `<name>-<hash of the folder's path>.json` in ``stateDirectory``, so that each
    /// environment's folder has its own.
    func stateFile(ofRecord name: String, folder directory: URL) -> URL {
        stateFolder.appending(path: "\(name)-\(Self.hash(of: directory)).json")
    }

    /// The folder that keeps the history of the specs folder `directory` (``FolderHistory``):
    /// `history-<hash of the folder's path>` in ``stateDirectory``.
    func historyFolder(of directory: URL) -> URL {
        stateFolder.appending(path: "history-\(Self.hash(of: directory))", directoryHint: .isDirectory)
    }

    private static func hash(of directory: URL) -> String {
        EntityTag(of: directory.standardizedFileURL.path.utf8).opaque
    }

    private var stateFolder: URL {
        if let stateDirectory { return stateDirectory }
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(filePath: state, directoryHint: .isDirectory).appending(path: "livery")
        }
        return URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory).appending(path: ".local/state/livery")
    }

    /// The most bytes of a request head the HTTP parser reads before it gives up (400, close).
    var parserHeadCeiling: Int { 4 * max(maxURIBytes, maxHeaderBytes) }

    /// How the folder is loaded, remote includes and all.
    var specLoader: SpecFolderLoader {
        SpecFolderLoader(registry: registry, limits: readerLimits, allowList: allowedIncludes, fetcher: includeFetcher)
    }

    /// The names accepted in `Host`: the loopback names and ``allowedHosts`` on a loopback
    /// ``host`` or when names are given; `nil` (any) otherwise.
    package var acceptedHosts: [String]? {
        guard isLoopback || !allowedHosts.isEmpty else { return nil }
        return RequestAdmission.loopbackNames + allowedHosts
    }

    /// The rule on `Host` and, for the bundle reads answered before the router, on keys.
    func admission(access: AccessRule) -> RequestAdmission {
        RequestAdmission(hosts: acceptedHosts, readKeys: access.readsNeedKey ? access : nil)
    }

    /// Whether reads need a key: `--require-read-key` or `--read-token-file`.
    var readsNeedKey: Bool { requireReadKey || readToken != nil }

    /// The file of the keys added with `POST /v1/keys`, when they are not in etcd: one for the
    /// daemon, by the folder it serves (its environments' root, else its specs folder).
    var keysFile: URL { stateFile(ofRecord: "keys", folder: environmentsRoot ?? directory) }

    /// Whether `/studio/` is served. By default on loopback, and on any address with TLS; off
    /// beyond loopback without TLS, where a page that asks for the push token would invite
    /// typing it over a network in clear text. `--studio` (behind a TLS proxy) turns it on there.
    public var servesStudio: Bool { studio ?? (isLoopback || tls != nil) }

    /// Whether ``host`` reaches this machine only: `localhost`, `127.0.0.0/8` or `::1`. Anywhere
    /// else the daemon warns at start-up unless it speaks TLS (``tls``).
    package var isLoopback: Bool {
        let host = self.host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
