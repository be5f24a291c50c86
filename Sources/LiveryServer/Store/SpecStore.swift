import Foundation
import Livery

/// Where a daemon keeps its spec set: a folder (``FolderSpecStore``) or etcd
/// (``EtcdSpecStore``). Both hold the same thing, paths to bytes, so both give the same bundle;
/// and beside the files a few small named records (``StoreRecord``), such as the staged rollout.
/// The daemon chooses its store in one place (``LiveryDaemon``); everything else sees this
/// protocol.
///
/// A store only reads and writes; it never validates. ``SpecWriter`` reads the state, validates
/// the whole resulting set and asks the store to commit the change *over the state it read*: the
/// store refuses (``CommitOutcome/raced``) if anything changed since, and the writer starts again
/// from the new state. So a write that raced another one is validated again, never lost and
/// never silently overwriting.
protocol SpecStore: Sendable {
    /// Every spec file at one version.
    func read() async throws(StoreError) -> StoreState

    /// Every spec file with its tag and size, sorted by path.
    func list() async throws(StoreError) -> [SpecFileEntry]

    /// One file's bytes and format, `rawPath` checked against the path rules first.
    func file(_ rawPath: String) async throws(StoreError) -> (path: String, data: Data, format: SpecFormat)

    /// Refuses paths the store can never write, before anything is read: on a folder, a path
    /// through a link to a folder, or a link itself.
    func checkWritable(_ paths: [String]) async throws(StoreError)

    /// Writes `change` if the store still holds `state`; all of it or none of it.
    func commit(_ change: ChangeSet, over state: StoreState) async throws(StoreError) -> CommitOutcome

    /// The publishes this store recorded, newest first, at most `limit`: etcd's publish records,
    /// a folder's ``FolderHistory``.
    func history(limit: Int) async throws(StoreError) -> [HistoryEntry]

    /// Every spec file as it was at `revision`.
    func read(atRevision revision: Int64) async throws(StoreError) -> StoreState

    /// Called by the follower once it loaded the spec files: a folder records them as a publish
    /// by `disk` if they differ from its newest revision (an edit made on disk); etcd records
    /// every publish when it commits it, and does nothing here.
    func recordLoaded() async

    /// What metrics and logs call the store's changes: `disk` or `etcd`.
    var changeSource: String { get }

    /// Follows the store until the calling task is cancelled: the spec files as they are now,
    /// then each change of them, read and staged by `loader`; whether the store can be followed;
    /// the records as they are now, then each change another daemon makes; and every report
    /// added. `receive` is awaited for each; one follower at a time.
    func follow(loading loader: SpecFolderLoader, into receive: @escaping @Sendable (StoreEvent) async -> Void) async

    /// The record `name` as the store holds it now.
    func record(named name: String) async throws(StoreError) -> StoreRecord

    /// Writes `data` as the record `name` if it still has `version` (0: still absent), with an
    /// entry of the history saying what happened (`event`) and who did it (`by`, a key's name;
    /// `nil` records `unknown`), an entry with no paths, and removes the record's reports of
    /// every group but `group`. On etcd all of it or none of it; a folder writes the record,
    /// then its history entry. The record's new version, or `nil` when another daemon changed
    /// the record first.
    func write(
        record data: Data, named name: String, over version: Int64, event: String, by: String?,
        keepingReportsOf group: String
    ) async throws(StoreError) -> Int64?

    /// Adds `data` as the report `key` of `group` on the record `name` unless one is there, so
    /// that it counts once however many requests and daemons carry it. Every follower of the
    /// store hears of it (``StoreEvent/report(record:_:)``), this daemon's too.
    func add(report data: Data, onRecord name: String, group: String, key: String) async throws(StoreError)
}

/// The spec files of a store at one version, and what a commit compares against.
struct StoreState: Sendable {
    /// The files, by path.
    var sources: SpecSourceSet
    /// The store's revision when read (etcd); `nil` for a folder.
    var revision: Int64?
    /// Each file's last modification revision (etcd); empty for a folder, which compares bytes.
    var modRevisions: [String: Int64] = [:]
}

/// What became of a commit.
enum CommitOutcome: Sendable {
    /// Written, at this store revision (`nil` when a folder could not record it in its history).
    case committed(revision: Int64?)
    /// The store no longer holds the state the change was validated against.
    case raced
}

/// A validated set of file changes to commit together.
struct ChangeSet: Sendable {
    /// New bytes by path; `nil` removes the file. Paths already passed ``Livery/SpecPath``.
    var files: [String: Data?]
    /// Why, as the author said it; recorded in the history.
    var message: String
    /// Who: the name of the key that authorised the write (`token-file` for `--token-file`'s),
    /// `disk` for an edit made on disk; recorded in the history as ``HistoryEntry/by``.
    var author: String
    /// The `Livery-Signed-Targets` header the write came with, which a daemon with offline
    /// targets requires (``OfferedTargets``).
    var signedTargets: String? = nil

    /// The paths, sorted.
    var paths: [String] { files.keys.sorted() }
}

/// One publish, or what a write of a record did, as `GET /v1/history` lists it.
package struct HistoryEntry: Codable, Hashable, Sendable {
    /// The store revision the publish created.
    public var revision: Int64
    /// When the daemon committed it, ISO 8601.
    public var time: String
    /// The author's message.
    public var message: String
    /// Who published it (``ChangeSet/author``), or did what an entry with no paths records.
    public var by: String
    /// The paths it wrote or removed; none for what a record's write did (a rollout's start, a
    /// change request's approval).
    public var paths: [String]

    /// The ``by`` of an entry whose author is not known: an older daemon's, or an event of a
    /// record whose writer does not say.
    static let unknownAuthor = "unknown"

    /// Creates an entry.
    public init(revision: Int64, time: String, message: String, by: String, paths: [String]) {
        self.revision = revision
        self.time = time
        self.message = message
        self.by = by
        self.paths = paths
    }
}
