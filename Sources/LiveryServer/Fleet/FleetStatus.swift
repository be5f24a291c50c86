import Foundation
import LiveryHTTP

/// The body of `GET /v1/clients`: how many clients are on which version, which have not
/// converged on the current one, and the identifiers they skipped.
///
/// The counts cover every client the table holds; the lists are cut to ``maxListedVersions``,
/// ``maxListedClients`` and ``maxListedSkipped`` (the `unlisted…` fields count the rest), and
/// the lagging clients listed are fewer still when the body would pass ``maxBytes``.
package struct FleetStatus: Codable, Equatable {
    /// The most versions listed.
    package static let maxListedVersions = 20
    /// The most clients listed in ``notConverged``.
    package static let maxListedClients = 100
    /// The most identifiers listed in ``skipped``.
    package static let maxListedSkipped = 100
    /// The largest body, in bytes of JSON.
    package static let maxBytes = 256 * 1024

    /// How many clients applied one version.
    package struct Version: Codable, Equatable {
        /// The applied ETag as the clients sent it; `nil` for clients that applied nothing yet.
        package var etag: String?
        package var clients: Int
        package var isCurrent: Bool
    }

    /// One client that has not applied the current version.
    package struct Client: Codable, Equatable {
        package var name: String
        package var instance: String
        package var appVersion: String
        package var applied: String?
        package var skipped: [String]
        package var lastSeen: String
    }

    /// How many clients reported skipping one identifier.
    package struct Skipped: Codable, Equatable {
        package var identifier: String
        package var clients: Int
    }

    /// The current bundle's ETag; `nil` before one loaded.
    package var current: String?
    package var clients: Int
    package var converged: Int
    /// `false` when clients were dropped to make room within the table's lifetime: a lagging
    /// client may be missing, so ``converged`` `==` ``clients`` proves nothing then.
    package var complete: Bool
    /// Clients dropped to make room since the daemon started.
    package var evicted: Int
    /// Most clients first.
    package var versions: [Version]
    package var unlistedVersions: Int
    /// Most recently seen first.
    package var notConverged: [Client]
    package var unlistedNotConverged: Int
    /// Most clients first.
    package var skipped: [Skipped]
    package var unlistedSkipped: Int
    package var malformedHeaders: Int
    /// The clients whose last request was an OpenFeature (OFREP) evaluation.
    package var ofrepReaders: Int

    /// Sums up a table's state against the current version `current`.
    init(_ state: ClientTableState, current: EntityTag?, complete: Bool) {
        func isCurrent(_ applied: String?) -> Bool {
            guard let current, let applied else { return false }
            return current.isNamed(by: applied)
        }
        let versions = state.byApplied.map { Version(etag: $0.key, clients: $0.value, isCurrent: isCurrent($0.key)) }
        self.current = current?.description
        self.clients = state.entries.count
        self.converged = versions.filter(\.isCurrent).reduce(0) { $0 + $1.clients }
        self.complete = complete
        self.evicted = state.evicted
        self.versions = Self.first(Self.maxListedVersions, of: versions) {
            ($0.clients, $0.etag ?? "") > ($1.clients, $1.etag ?? "")
        }
        self.unlistedVersions = versions.count - self.versions.count
        self.notConverged = Array(
            state.newestFirst().lazy.filter { !isCurrent($0.entry.header.applied) }
                .prefix(Self.maxListedClients).map { slot in
                    let identity = slot.entry.header.identity
                    return Client(
                        name: identity.name, instance: identity.instance, appVersion: identity.appVersion,
                        applied: slot.entry.header.applied, skipped: slot.entry.header.skipped,
                        lastSeen: DaemonRoutes.timestamp(slot.entry.lastSeen))
                })
        self.unlistedNotConverged = clients - converged - notConverged.count
        self.skipped = Self.first(
            Self.maxListedSkipped, of: state.bySkipped.lazy.map { Skipped(identifier: $0.key, clients: $0.value) }
        ) { ($0.clients, $1.identifier) > ($1.clients, $0.identifier) }
        self.unlistedSkipped = state.bySkipped.count - skipped.count
        self.malformedHeaders = state.malformed
        self.ofrepReaders = state.ofrepReaders
    }

    /// The first `count` of `elements` in the order `precedes` gives, without sorting them all:
    /// a table of 10,000 clients may hold as many versions and twice as many identifiers.
    private static func first<Element>(
        _ count: Int, of elements: some Sequence<Element>, by precedes: (Element, Element) -> Bool
    ) -> [Element] {
        var kept: [Element] = []
        for element in elements {
            if kept.count == count, let last = kept.last, !precedes(element, last) { continue }
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(element, kept[middle]) { high = middle } else { low = middle + 1 }
            }
            kept.insert(element, at: low)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// Lists half as many lagging clients, to bring the body under ``maxBytes``; `false` when
    /// none are listed. Every string of a report is at most ``LiveryHTTP/ClientIdentity/maxFieldBytes``
    /// bytes, so the other lists alone stay well under it.
    mutating func listFewerClients() -> Bool {
        guard !notConverged.isEmpty else { return false }
        let keep = notConverged.count / 2
        unlistedNotConverged += notConverged.count - keep
        notConverged.removeLast(notConverged.count - keep)
        return true
    }
}
