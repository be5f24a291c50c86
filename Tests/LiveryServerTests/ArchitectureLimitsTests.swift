import Foundation
import Testing

@testable import Livery
@testable import LiveryHTTP
@testable import LiveryServer

/// The limits table of `docs/ARCHITECTURE.md` ("Where each limit is enforced") says the
/// defaults the code has: each row's default is written here from the constants, and must be
/// the row's text exactly. A row added to the table must be added here too (or to the rows with
/// no number of ours), so a new limit cannot go unchecked. The module table is checked against
/// `Package.swift` by `Tests/Docs/check_architecture.py`.
@Suite struct ArchitectureLimitsTests {
    static let document = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/ARCHITECTURE.md")

    /// Rows whose default is not a number of ours (NIO's high-water mark, the system's file
    /// limit, rules with no number).
    static let rowsWithoutOurNumbers: Set<String> = [
        "reading a connection whose answers are not read", "open files", "`Host` on a loopback address",
        "read token",
    ]

    /// Each row's default, written from the constants.
    static var expected: [String: String] {
        let configuration = DaemonConfiguration(directory: URL(filePath: "/nonexistent"))
        let reader = ReaderLimits.default
        let connections = ConnectionLimits()
        let table = ClientTable(metrics: EnvironmentMetrics(environment: "default", server: ServerMetrics()))
        return [
            "spec file size": bytes(reader.maxBytes),
            "nesting depth": count(reader.maxDepth),
            "values after YAML alias expansion": count(reader.maxNodes),
            "remote include documents per spec": count(RemoteIncludes().maxDocuments),
            "push body": "\(bytes(configuration.maxBodyBytes)) (413)",
            "request target / header fields":
                "\(bytes(configuration.maxURIBytes)) (414) / \(bytes(configuration.maxHeaderBytes)) (431)",
            "silent connection": seconds(configuration.idleTimeout),
            "request body arrival": "\(seconds(configuration.requestTimeout)) (408)",
            "requests held behind a long-poll, or behind answers the client does not read, on one connection":
                "\(count(BundleRequestHandler.maxQueuedParts)) parts",
            "connections, all / per peer address":
                "\(count(connections.maxConnections)) / \(count(connections.maxConnectionsPerPeer)) "
                + "(behind a proxy: per peer as all), at most the file limit − \(ConnectionLimits.reservedDescriptors) "
                + "(closed on arrival)",
            "held requests (long-polls, event streams), all / per peer address":
                "\(count(connections.maxHeldRequests)) / \(count(connections.maxHeldRequestsPerPeer)) "
                + "(behind a proxy: per peer as all), at most the connections − \(ConnectionLimits.reservedConnections) "
                + "(503, `Retry-After: 5`, close)",
            "OpenFeature evaluations per peer address":
                "\(count(configuration.maxEvaluationsPerPeer)) a second, in bursts of as many (429, `Retry-After: 1`)",
            "reading any connection":
                "one read of \(bytes(DaemonHTTPChannel.readBytes)) each time the event loop polls it, so a pipelining "
                + "client gets a turn like every other connection; \(bytes(DaemonHTTPChannel.bodyReadBytes)) while a "
                + "request body of \(bytes(DaemonHTTPChannel.bodyReadBytes)) or more arrives",
            "bytes read that were not asked for (NIO reads a connection to its end once the peer hangs up)":
                "\(bytes(RawBundleHandler.maxUnaskedBytes)), held unparsed (then closed)",
            "kept bundle versions": count(BundleHub.keptVersions),
            "a rollout's refusals and problem reports": "\(count(RolloutTally.maxCounted)) distinct instances each",
            "fleet table":
                "\(count(ClientTable.defaultCapacity)) clients, \(count(ClientTable.defaultSkippedCapacity)) "
                + "skipped identifiers in all, \(minutes(table.lifetime))",
            "`GET /v1/clients`":
                "\(count(FleetStatus.maxListedVersions)) versions, \(count(FleetStatus.maxListedClients)) lagging "
                + "clients, \(count(FleetStatus.maxListedSkipped)) identifiers listed; \(bytes(FleetStatus.maxBytes))",
            "files and bytes of one write":
                "\(count(SpecWriter.maxFiles)) files (422), \(bytes(SpecWriter.maxBytes)) (413)",
            "lost write races in a row": "\(count(SpecWriter.maxTries)) (409)",
            "cached listings and historic bundles":
                "\(count(DaemonRoutes.cachedListings)) listing, \(count(DaemonRoutes.cachedRevisions)) revisions",
        ]
    }

    /// `limit → default` of every row of the table.
    static func rows() throws -> [String: String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let section =
            try #require(text.components(separatedBy: "## Where each limit is enforced").last)
            .components(separatedBy: "\n## ").first ?? ""
        var rows: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| limit ") {
            let cells = line.dropFirst(2).components(separatedBy: " | ")
            guard cells.count == 3 else { continue }
            rows[cells[0]] = cells[1]
        }
        return rows
    }

    @Test func everyDefaultInTheTableIsTheConstant() throws {
        let rows = try Self.rows()
        #expect(rows.count > 15, "the limits table was not found in docs/ARCHITECTURE.md")
        let expected = Self.expected
        for (limit, text) in rows.sorted(by: { $0.key < $1.key }) where !Self.rowsWithoutOurNumbers.contains(limit) {
            guard let value = expected[limit] else {
                Issue.record("docs/ARCHITECTURE.md: the limits row '\(limit)' is not checked; add it here")
                continue
            }
            #expect(text == value, "docs/ARCHITECTURE.md, limits row '\(limit)': the code says '\(value)'")
        }
        for limit in expected.keys where rows[limit] == nil {
            Issue.record("docs/ARCHITECTURE.md has no limits row '\(limit)'")
        }
    }

    static func count(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    static func bytes(_ value: Int) -> String {
        if value % (1024 * 1024) == 0 { return "\(count(value / (1024 * 1024))) MiB" }
        if value % 1024 == 0 { return "\(count(value / 1024)) KiB" }
        return "\(count(value)) bytes"
    }

    static func seconds(_ value: Duration?) -> String {
        value.map { "\($0.components.seconds) s" } ?? "none"
    }

    static func minutes(_ value: Duration) -> String {
        "\(value.components.seconds / 60) minutes"
    }
}
