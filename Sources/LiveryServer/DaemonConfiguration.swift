import Foundation
import Livery
import LiveryWatch

/// Everything `livery serve` can be told: where the specs are, where to listen, and the limits.
public struct DaemonConfiguration: Sendable {
    /// The specs folder to watch and to write pushes into.
    public var directory: URL
    /// The address to listen on; `127.0.0.1` by default, so only this machine can reach it.
    public var host: String
    /// The port; 0 asks the system for a free one (see ``LiveryDaemon/listeningPort()``).
    public var port: Int
    /// The largest push body, in bytes. 1 MiB by default.
    public var maxBodyBytes: Int
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

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        directory: URL,
        host: String = "127.0.0.1",
        port: Int = 7878,
        maxBodyBytes: Int = 1024 * 1024,
        heartbeatInterval: Duration = .seconds(15),
        retryHint: Duration = .seconds(2),
        watch: WatchConfiguration = WatchConfiguration(),
        readerLimits: ReaderLimits = .default,
        registry: TraitRegistry = .standard
    ) {
        self.directory = directory
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.heartbeatInterval = heartbeatInterval
        self.retryHint = retryHint
        self.watch = watch
        self.readerLimits = readerLimits
        self.registry = registry
    }
}
