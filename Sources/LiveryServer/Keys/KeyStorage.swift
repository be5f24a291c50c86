/// Where the stored keys live: a file in the daemon's state folder (``FileKeyStorage``) or etcd
/// (``EtcdKeyStorage``, shared by every daemon of the prefix).
protocol KeyStorage: Sendable {
    /// Every stored key.
    func load() async throws(StoreError) -> [KeyRecord]

    /// Adds `record` unless a key of its name exists; whether it did.
    func add(_ record: KeyRecord) async throws(StoreError) -> Bool

    /// Removes the key `name`; whether there was one.
    func remove(_ name: String) async throws(StoreError) -> Bool

    /// Writes the last use of `records` where the storage keeps them.
    func saveUsage(_ records: [KeyRecord]) async throws(StoreError)

    /// Hands every change another daemon makes to `receive` until the task is cancelled; returns
    /// at once where no other daemon shares the keys.
    func follow(into receive: @escaping @Sendable ([KeyRecord]) -> Void) async
}
