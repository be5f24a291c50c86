import ArgumentParser
import Foundation
import LiveryServer

/// The options of `livery serve` against hostile clients: who may ask (`Host`, the read token)
/// and how much (connections, held requests and OpenFeature evaluations).
struct AccessOptions: ParsableArguments {
    @Option(
        name: .customLong("allowed-host"),
        help:
            "A name to accept in the Host header besides localhost, 127.0.0.1 and [::1] (repeatable): the name a proxy or a deployment reaches the daemon by. Other names get 421 on a loopback --host; elsewhere, once one is given, too."
    )
    var allowedHosts: [String] = []

    @Option(
        help:
            "A file holding a read key on every environment (named read-token-file); giving one requires a key to read, as --require-read-key does."
    )
    var readTokenFile: String?

    @Flag(
        help:
            "Every read needs a key of scope read (Authorization: Bearer), except /healthz, /readyz and the studio's page."
    )
    var requireReadKey = false

    @Option(help: "The most open connections, all clients together (lowered to fit the open-file limit).")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(
        help:
            "The most open connections from one IP address. Behind a proxy, or under a load generator, all clients share one address: give it the --max-connections figure."
    )
    var maxConnectionsPerPeer = ConnectionLimits().maxConnectionsPerPeer

    @Option(help: "The most long-polls and event streams held open, all clients together; more get 503.")
    var maxHeldRequests = ConnectionLimits().maxHeldRequests

    @Option(
        help:
            "The most long-polls and event streams held open for one IP address; more get 503. Behind a proxy, give it the --max-held-requests figure."
    )
    var maxHeldRequestsPerPeer = ConnectionLimits().maxHeldRequestsPerPeer

    @Option(
        help:
            "The most OpenFeature (OFREP) evaluations one IP address may ask for a second, and in one burst; more get 429 with Retry-After. Behind a proxy, give it what all clients together may ask."
    )
    var maxEvaluationsPerPeer = 1000

    func validate() throws {
        for (name, value) in [
            ("--max-connections", maxConnections), ("--max-connections-per-peer", maxConnectionsPerPeer),
            ("--max-held-requests", maxHeldRequests), ("--max-held-requests-per-peer", maxHeldRequestsPerPeer),
            ("--max-evaluations-per-peer", maxEvaluationsPerPeer),
        ] where value < 1 {
            throw ValidationError("\(name) \(value) must be at least 1")
        }
        for name in allowedHosts
        where name.isEmpty || name.contains(":") && !name.hasPrefix("[") || name.contains(where: \.isWhitespace) {
            throw ValidationError("--allowed-host '\(name)' is not a host name (no port, no spaces; IPv6 in brackets)")
        }
    }

    /// Sets the options on `configuration`, reading the read token.
    func apply(to configuration: inout DaemonConfiguration) throws {
        configuration.allowedHosts = allowedHosts
        configuration.readToken = try readTokenFile.map { try TokenFile.read(URL(filePath: $0)) }
        configuration.requireReadKey = requireReadKey
        configuration.connectionLimits = ConnectionLimits(
            maxConnections: maxConnections, maxConnectionsPerPeer: maxConnectionsPerPeer,
            maxHeldRequests: maxHeldRequests, maxHeldRequestsPerPeer: maxHeldRequestsPerPeer)
        configuration.maxEvaluationsPerPeer = maxEvaluationsPerPeer
    }
}

/// `--read-token-file` of the commands that read a daemon (`status`, `history`).
struct ReadTokenOption: ParsableArguments {
    @Option(help: "A file holding the daemon's read token (its --read-token-file), sent with every request.")
    var readTokenFile: String?

    /// The token, if a file was given.
    func token() throws -> BearerToken? {
        try readTokenFile.map { try TokenFile.read(URL(filePath: $0)) }
    }
}
