import Foundation

/// The body of `GET /v1/clients`: how many clients are on which version, which have not
/// converged on the current one, and the identifiers they skipped.
package struct FleetStatus: Codable, Equatable {
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
    /// Most clients first.
    package var versions: [Version]
    /// Most recently seen first.
    package var notConverged: [Client]
    /// Most clients first.
    package var skipped: [Skipped]
    package var malformedHeaders: Int

    /// Sums up `entries` against the current version `current`.
    init(entries: [ClientTable.Entry], current: EntityTag?, malformedHeaders: Int) {
        func isCurrent(_ applied: String?) -> Bool {
            guard let current, let applied else { return false }
            return current.isNamed(by: applied)
        }
        var byVersion: [String?: Int] = [:]
        var bySkipped: [String: Int] = [:]
        for entry in entries {
            byVersion[entry.header.applied, default: 0] += 1
            for identifier in Set(entry.header.skipped) { bySkipped[identifier, default: 0] += 1 }
        }
        let lagging = entries.filter { !isCurrent($0.header.applied) }
        self.current = current?.description
        self.clients = entries.count
        self.converged = entries.count - lagging.count
        self.versions = byVersion.map { Version(etag: $0.key, clients: $0.value, isCurrent: isCurrent($0.key)) }
            .sorted { ($0.clients, $0.etag ?? "") > ($1.clients, $1.etag ?? "") }
        self.notConverged = lagging.map { entry in
            let identity = entry.header.identity
            return Client(
                name: identity.name, instance: identity.instance, appVersion: identity.appVersion,
                applied: entry.header.applied, skipped: entry.header.skipped,
                lastSeen: DaemonRoutes.timestamp(entry.lastSeen))
        }
        self.skipped = bySkipped.map { Skipped(identifier: $0.key, clients: $0.value) }
            .sorted { ($0.clients, $1.identifier) > ($1.clients, $0.identifier) }
        self.malformedHeaders = malformedHeaders
    }
}
