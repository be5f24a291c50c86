/// How much of the daemon one client, and all of them, may hold: connections, and held requests
/// (long-polls and event streams, which keep a connection and a descriptor for as long as they
/// wait). Beyond a connection limit a new connection is closed as soon as it is accepted;
/// beyond a held-request limit the request is answered `503` with `Retry-After` and its
/// connection closed, so the refused client frees its descriptor.
///
/// The limits in force are these, lowered to what the file limit allows (`effective(fileLimit:)`):
/// descriptors are kept in reserve for the daemon's own files (reads, writes, the watcher, etcd),
/// and connections in reserve for the short requests (`/healthz`, `/readyz`, pushes), so that a
/// flood of held requests never takes them all.
public struct ConnectionLimits: Sendable, Equatable {
    /// Open connections, all clients together (`--max-connections`). 8,192 by default.
    public var maxConnections: Int
    /// Open connections from one IP address (`--max-connections-per-peer`). 512 by default: a
    /// host or an office behind one NAT address with two hundred programs following the daemon
    /// (a connection each, a second while one sends a report, two for a browser's studio) fits,
    /// one attacker takes a sixteenth of the connections. Behind a proxy every client has the
    /// proxy's address: see ``perPeerAsGlobal``.
    public var maxConnectionsPerPeer: Int
    /// Held requests, all clients together (`--max-held-requests`). 4,096 by default.
    public var maxHeldRequests: Int
    /// Held requests from one IP address (`--max-held-requests-per-peer`). 256 by default: a
    /// long-poll or an event stream per following program, for two hundred of them and some
    /// room, a sixteenth of all; the rest of that address's connections stay for short requests.
    /// A program beyond it is told to come back in five seconds (`Retry-After`), which
    /// `RemoteSpecSource` honours without counting a failure.
    public var maxHeldRequestsPerPeer: Int

    /// Descriptors never given to connections: the daemon's files, watcher and etcd client.
    package static let reservedDescriptors = 64
    /// Connections never given to held requests, so short requests always find one.
    package static let reservedConnections = 64

    /// Creates limits; every parameter has the default described on its property.
    public init(
        maxConnections: Int = 8192, maxConnectionsPerPeer: Int = 512, maxHeldRequests: Int = 4096,
        maxHeldRequestsPerPeer: Int = 256
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerPeer = maxConnectionsPerPeer
        self.maxHeldRequests = maxHeldRequests
        self.maxHeldRequestsPerPeer = maxHeldRequestsPerPeer
    }

    /// These limits with each per-peer limit as high as its global one, for a daemon whose
    /// clients all reach it from one address: behind a proxy (nginx's `limit_conn` then belongs
    /// in the proxy, which sees the clients' addresses), or under a load generator.
    public var perPeerAsGlobal: ConnectionLimits {
        ConnectionLimits(
            maxConnections: maxConnections, maxConnectionsPerPeer: maxConnections, maxHeldRequests: maxHeldRequests,
            maxHeldRequestsPerPeer: maxHeldRequests)
    }

    /// The limits in force under a file limit of `fileLimit` descriptors: connections at most
    /// `fileLimit` less `reservedDescriptors`, held requests at most the connections less
    /// `reservedConnections`, and no per-peer limit above its global one.
    package func effective(fileLimit: Int) -> ConnectionLimits {
        let connections = max(1, min(maxConnections, fileLimit - Self.reservedDescriptors))
        let held = max(0, min(maxHeldRequests, connections - Self.reservedConnections))
        return ConnectionLimits(
            maxConnections: connections, maxConnectionsPerPeer: min(maxConnectionsPerPeer, connections),
            maxHeldRequests: held, maxHeldRequestsPerPeer: min(maxHeldRequestsPerPeer, held))
    }
}
