import Foundation
import Livery
import LiveryEtcd
import Logging

/// The spec files as keys in etcd, one per file under `PREFIX/specs/`: a ``SpecStore`` that
/// several daemons share.
///
/// A read is one range request, so it sees every file at one revision. A commit is one
/// transaction that writes every file of the change and a publish record, and only if no spec
/// key and no publish record changed since the revision read (and each changed key still has
/// the revision read, or is still absent): a daemon that lost a race hears so and validates
/// again. The history is the publish records, each at the revision its transaction created.
/// Records are keys beside the specs, followed by the same watch (``follow(loading:into:)``).
final class EtcdSpecStore: SpecStore {
    let configuration: EtcdStoreConfiguration
    let client: EtcdClient
    private let limits: ReaderLimits
    let changeSource = "etcd"

    init(configuration: EtcdStoreConfiguration, limits: ReaderLimits, logger: Logger) {
        self.configuration = configuration
        self.client = EtcdClient(
            endpoints: configuration.endpoints, http: configuration.http, credentials: configuration.credentials,
            logger: logger)
        self.limits = limits
    }

    func read() async throws(StoreError) -> StoreState {
        try await read(revision: nil)
    }

    func list() async throws(StoreError) -> [SpecFileEntry] {
        let sources = try await read().sources
        return sources.sortedPaths.compactMap { sources.files[$0] }.map {
            SpecFileEntry(path: $0.path, etag: EntityTag(of: $0.data).description, size: $0.data.count)
        }
    }

    func file(_ rawPath: String) async throws(StoreError) -> (path: String, data: Data, format: SpecFormat) {
        let path: String
        do {
            path = try SpecPath.validate(rawPath)
        } catch {
            throw .forbiddenPath(error)
        }
        guard let file = try await read().sources.files[path] else { throw .notFound(path) }
        return (path, file.data, file.format)
    }

    func checkWritable(_ paths: [String]) {
        // Every allowed spec path is a key like any other.
    }

    func commit(_ change: ChangeSet, over state: StoreState) async throws(StoreError) -> CommitOutcome {
        let revision = state.revision ?? 0
        let specs = configuration.specsPrefix
        let history = configuration.historyPrefix
        var compares: [EtcdClient.Compare] = [
            .unchangedSince(key: specs, rangeEnd: EtcdClient.prefixEnd(specs), revision: revision),
            .unchangedSince(key: history, rangeEnd: EtcdClient.prefixEnd(history), revision: revision),
        ]
        var operations: [EtcdClient.Operation] = []
        for path in change.paths {
            let key = specs + path
            compares.append(state.modRevisions[path].map { .modRevision(key: key, equals: $0) } ?? .absent(key: key))
            operations.append(change.files[path].flatMap { $0 }.map { .put(key: key, value: $0) } ?? .delete(key: key))
        }
        let now = Date()
        let record = PublishRecord(
            time: ISO8601DateFormatter().string(from: now), message: change.message, by: change.author,
            paths: change.paths)
        operations.append(.put(key: history + Self.recordName(at: now), value: record.encoded))
        do {
            operations += try await recordsToPrune().map { .delete(key: $0) }
            let (succeeded, newRevision) = try await client.transaction(if: compares, then: operations)
            return succeeded ? .committed(revision: newRevision) : .raced
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The oldest publish records beyond what ``EtcdStoreConfiguration/historyLimit`` keeps
    /// once one more is written, at most ``maxPrunedPerCommit`` of them.
    ///
    /// Read at the newest revision, not the one the change was validated at: the commit also
    /// requires that no record changed since that one, so a list that differs only fails the
    /// transaction, and the writer starts again.
    private func recordsToPrune() async throws(EtcdError) -> [String] {
        let history = configuration.historyPrefix
        let records = try await client.range(key: history, rangeEnd: EtcdClient.prefixEnd(history), keysOnly: true).0
        let excess = records.count + 1 - configuration.historyLimit
        guard excess > 0 else { return [] }
        return records.sorted { $0.createRevision < $1.createRevision }.prefix(min(excess, Self.maxPrunedPerCommit))
            .map(\.key)
    }

    /// How many old records one publish removes at most, so that its transaction stays well
    /// under etcd's limit of operations (`--max-txn-ops`, 128 by default) after a lowered limit.
    static let maxPrunedPerCommit = 32

    func history(limit: Int) async throws(StoreError) -> [HistoryEntry] {
        let history = configuration.historyPrefix
        let kvs: [EtcdClient.KeyValue]
        do {
            kvs = try await client.range(key: history, rangeEnd: EtcdClient.prefixEnd(history)).0
        } catch {
            throw Self.storeError(error)
        }
        let entries = kvs.map { kv in
            let record = PublishRecord(kv.value)
            return HistoryEntry(
                revision: kv.createRevision, time: record.time, message: record.message,
                by: record.by ?? HistoryEntry.unknownAuthor,
                paths: record.paths)
        }
        return Array(entries.sorted { $0.revision > $1.revision }.prefix(limit))
    }

    func read(atRevision revision: Int64) async throws(StoreError) -> StoreState {
        try await read(revision: revision)
    }

    /// Nothing to record: every publish wrote its record in its own transaction.
    func recordLoaded() {}

    private func read(revision: Int64?) async throws(StoreError) -> StoreState {
        let specs = configuration.specsPrefix
        let (kvs, readRevision): ([EtcdClient.KeyValue], Int64)
        do {
            (kvs, readRevision) = try await client.range(
                key: specs, rangeEnd: EtcdClient.prefixEnd(specs), revision: revision)
        } catch  where error.code == .compacted {
            throw .revisionCompacted(revision ?? 0)
        } catch  where error.code == .futureRevision {
            throw .revisionInFuture(revision ?? 0)
        } catch {
            throw Self.storeError(error)
        }
        var files: [String: Data] = [:]
        var modRevisions: [String: Int64] = [:]
        for kv in kvs {
            let path = String(kv.key.dropFirst(specs.count))
            files[path] = kv.value
            modRevisions[path] = kv.modRevision
        }
        do {
            return StoreState(
                sources: try sources(files), revision: revision ?? readRevision, modRevisions: modRevisions)
        } catch {
            throw .invalid([error])
        }
    }

    /// The files as a source set, by the rules a folder's files follow: a key that is not an
    /// allowed spec path, or a value over the size limit, is an error located at its path.
    func sources(_ files: [String: Data]) throws(SpecError) -> SpecSourceSet {
        var set = SpecSourceSet()
        for path in files.keys.sorted() {
            let data = files[path] ?? Data()
            guard data.count <= limits.maxBytes else {
                throw SpecError(
                    .limitExceeded, at: .start(of: path),
                    "file is \(data.count) bytes; the limit is \(limits.maxBytes) bytes")
            }
            try set.set(path, to: data)
        }
        return set
    }

    static func storeError(_ error: EtcdError) -> StoreError {
        switch error.code {
        case .unavailable: .unavailable(error.description)
        case .compacted, .futureRevision, .protocolError, .unauthenticated, .permissionDenied:
            .storeFailed(error.description)
        }
    }

    /// A key name that sorts by time and never collides between daemons.
    static func recordName(at time: Date) -> String {
        let nanoseconds = UInt64(time.timeIntervalSince1970 * 1_000_000_000)
        let digits = String(nanoseconds)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "-" + UUID().uuidString.lowercased()
    }
}

/// The value of a publish record key: JSON `{"time", "message", "by", "paths"}`.
struct PublishRecord: Codable, Sendable {
    var time: String
    var message: String
    /// Who (``ChangeSet/author``, or the `by` of a record's event); absent in the records of
    /// daemons that did not say, and in the events of those that do not know.
    var by: String?
    var paths: [String]

    init(time: String, message: String, by: String?, paths: [String]) {
        self.time = time
        self.message = message
        self.by = by
        self.paths = paths
    }

    /// Decodes a record; one that is not (written by hand, say) reads as "unknown".
    init(_ data: Data) {
        do {
            self = try JSONDecoder().decode(PublishRecord.self, from: data)
        } catch {
            self.init(time: "", message: "(unreadable publish record: \(error))", by: nil, paths: [])
        }
    }

    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            // Three strings: encoding them cannot fail.
            return Data(#"{"message":"","paths":[],"time":""}"#.utf8)
        }
    }
}
