import Foundation
import LiveryEtcd

/// The keys of daemons on etcd: one etcd key per key, `PREFIX/keys/NAME`, holding its
/// ``KeyRecord``. Every daemon of the prefix follows them with a watch, so a key added or
/// revoked on one is accepted or refused by all within the watch's delay.
struct EtcdKeyStorage: KeyStorage {
    let client: EtcdClient
    let configuration: EtcdStoreConfiguration

    private var prefix: String { configuration.keysPrefix }

    func load() async throws(StoreError) -> [KeyRecord] {
        do {
            let (keyValues, _) = try await client.range(key: prefix, rangeEnd: EtcdClient.prefixEnd(prefix))
            return Self.records(keyValues.map(\.value))
        } catch {
            throw EtcdSpecStore.storeError(error)
        }
    }

    func add(_ record: KeyRecord) async throws(StoreError) -> Bool {
        let key = prefix + record.grant.name
        let value: Data
        do {
            value = try JSONEncoder().encode(record)
        } catch {
            throw .storeFailed("cannot encode the key '\(record.grant.name)': \(error)")
        }
        do {
            return try await client.transaction(if: [.absent(key: key)], then: [.put(key: key, value: value)])
                .succeeded
        } catch {
            throw EtcdSpecStore.storeError(error)
        }
    }

    func remove(_ name: String) async throws(StoreError) -> Bool {
        let key = prefix + name
        do {
            let (found, _) = try await client.range(key: key, rangeEnd: key + "\u{0}")
            guard let current = found.first else { return false }
            return try await client.transaction(
                if: [.modRevision(key: key, equals: current.modRevision)], then: [.delete(key: key)]
            ).succeeded
        } catch {
            throw EtcdSpecStore.storeError(error)
        }
    }

    func saveUsage(_ records: [KeyRecord]) async throws(StoreError) {
        // Each daemon keeps the last use it saw: a write per use would make every read a write
        // to the shared store.
    }

    func follow(into receive: @escaping @Sendable ([KeyRecord]) -> Void) async {
        var values: [String: Data] = [:]
        for await event in client.follow(prefix: prefix, silenceLimit: configuration.watchSilenceLimit) {
            switch event {
            case .snapshot(let keyValues, _):
                values = Dictionary(keyValues.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            case .changes(let events, _):
                for event in events { values[event.keyValue.key] = event.isDelete ? nil : event.keyValue.value }
            case .reachable, .unreachable:
                continue
            }
            receive(Self.records(Array(values.values)))
        }
    }

    /// The records among `values`; a value that is not one (put by hand) grants nothing.
    private static func records(_ values: [Data]) -> [KeyRecord] {
        values.compactMap { value in
            do {
                return try JSONDecoder().decode(KeyRecord.self, from: value)
            } catch {
                return nil
            }
        }
    }
}
