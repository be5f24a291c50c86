import Synchronization

/// The connections and held requests open now, all together and per peer address, against the
/// ``ConnectionLimits`` in force: every connection's handlers take and give back their share
/// here, from any event loop.
final class ConnectionBudget: Sendable {
    /// The limits in force (already lowered to the file limit).
    let limits: ConnectionLimits
    private let state = Mutex(State())

    private struct State {
        var connections = Count()
        var held = Count()
    }

    /// Open things of one kind: all of them, and by peer.
    private struct Count {
        var total = 0
        var byPeer: [String: Int] = [:]

        mutating func take(_ peer: String, limit: Int, perPeer: Int) -> Bool {
            let mine = byPeer[peer, default: 0]
            guard total < limit, mine < perPeer else { return false }
            total += 1
            byPeer[peer] = mine + 1
            return true
        }

        mutating func giveBack(_ peer: String) {
            total -= 1
            let mine = byPeer[peer, default: 1] - 1
            byPeer[peer] = mine > 0 ? mine : nil
        }
    }

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Takes a connection for `peer`; `false` if either connection limit is reached.
    func takeConnection(_ peer: String) -> Bool {
        state.withLock {
            $0.connections.take(peer, limit: limits.maxConnections, perPeer: limits.maxConnectionsPerPeer)
        }
    }

    /// Gives back a connection taken with ``takeConnection(_:)``.
    func giveBackConnection(_ peer: String) {
        state.withLock { $0.connections.giveBack(peer) }
    }

    /// Takes a held request (a long-poll or an event stream) for `peer`; `false` if either
    /// held-request limit is reached.
    func takeHeld(_ peer: String) -> Bool {
        state.withLock {
            $0.held.take(peer, limit: limits.maxHeldRequests, perPeer: limits.maxHeldRequestsPerPeer)
        }
    }

    /// Gives back a held request taken with ``takeHeld(_:)``.
    func giveBackHeld(_ peer: String) {
        state.withLock { $0.held.giveBack(peer) }
    }

    /// Connections and held requests open now.
    var open: (connections: Int, held: Int) {
        state.withLock { ($0.connections.total, $0.held.total) }
    }
}
