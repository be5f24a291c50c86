import Foundation
import Logging
import ServiceLifecycle

/// Keeps the ring's stored keys in step with their storage: reads them before the daemon
/// answers, follows the changes other daemons make (etcd), adds and revokes keys, and writes
/// their last use at most once a minute.
final class KeyKeeper: Service, Sendable {
    let ring: KeyRing
    private let storage: any KeyStorage
    private let logger: Logger

    /// How often the last uses are written.
    static let usageInterval: Duration = .seconds(60)
    /// The name no key may take: `GET /v1/keys/self` answers what the calling key may do, and
    /// the router gives that literal path precedence over `/v1/keys/{name}` (`DELETE` there is 405).
    static let selfName = "self"

    init(ring: KeyRing, storage: any KeyStorage, logger: Logger) {
        self.ring = ring
        self.storage = storage
        self.logger = logger
    }

    /// Reads the stored keys into the ring.
    func load() async throws(StoreError) {
        ring.replace(with: try await storage.load())
    }

    /// Follows the storage and writes the last uses until graceful shutdown.
    func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [storage, ring] in await storage.follow { ring.replace(with: $0) } }
                group.addTask { [self] in
                    while true {
                        do {
                            try await Task.sleep(for: Self.usageInterval)
                        } catch {
                            return  // cancelled: the daemon shuts down, and run() saves once more
                        }
                        await saveUsage()
                    }
                }
            }
        }
        await saveUsage()
    }

    /// Adds a key for `grant`; the key itself, which is shown this once.
    func add(_ grant: KeyGrant, now: Date = Date()) async throws(KeyError) -> String {
        try check(grant)
        let key = AccessKey.generate()
        let record = KeyRecord(grant: grant, sha256: AccessKey.digest(of: key.utf8), created: now.formatted(.iso8601))
        let added: Bool
        do throws(StoreError) {
            added = try await storage.add(record)
            if added { try await load() }
        } catch {
            throw .store(error)
        }
        guard added else { throw .exists(grant.name) }
        logger.notice(
            "key added",
            metadata: [
                "livery.key": "\(grant.name)",
                "livery.scopes": "\(grant.scopes.map(\.rawValue).joined(separator: ","))",
                "livery.environments": "\(grant.environments.joined(separator: ","))",
            ])
        return key
    }

    /// Revokes the key `name`.
    func revoke(_ name: String) async throws(KeyError) {
        guard !ring.reservedNames.contains(name) else { throw .fixed(name) }
        let removed: Bool
        do throws(StoreError) {
            removed = try await storage.remove(name)
            try await load()
        } catch {
            throw .store(error)
        }
        guard removed else { throw .unknown(name) }
        logger.notice("key revoked", metadata: ["livery.key": "\(name)"])
    }

    private func check(_ grant: KeyGrant) throws(KeyError) {
        guard grant.name.wholeMatch(of: /[A-Za-z0-9][A-Za-z0-9._-]{0,62}/) != nil else {
            throw .invalid(
                "the key name '\(grant.name)' must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit"
            )
        }
        guard !ring.reservedNames.contains(grant.name) else { throw .fixed(grant.name) }
        guard grant.name != KeyKeeper.selfName else { throw .reserved(grant.name) }
        guard !grant.scopes.isEmpty else {
            throw .invalid(
                "a key needs at least one scope: \(KeyScope.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard !grant.environments.isEmpty else {
            throw .invalid("a key needs at least one environment, or '*' for every environment")
        }
        for environment in grant.environments where environment != KeyGrant.everyEnvironment {
            guard environment.wholeMatch(of: /[a-z][a-z0-9-]{0,62}/) != nil else {
                throw .invalid(
                    "the environment '\(environment)' is not an environment name ([a-z][a-z0-9-]{0,62}) nor '*'")
            }
        }
    }

    private func saveUsage() async {
        guard ring.takeUsageChanged() else { return }
        do throws(StoreError) {
            try await storage.saveUsage(ring.records)
        } catch {
            logger.warning("cannot record when keys were last used", metadata: ["livery.error": "\(error)"])
        }
    }
}
