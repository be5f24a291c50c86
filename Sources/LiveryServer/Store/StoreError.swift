import Livery
import LiveryHTTP

/// Why a store could not read or write, or a write was refused: the error of the store layer,
/// which knows nothing of HTTP (``DaemonRoutes`` maps each case to one problem and status).
enum StoreError: Error, Equatable {
    /// The path breaks a rule of ``Livery/SpecPath``.
    case forbiddenPath(SpecError)
    /// No such file.
    case notFound(String)
    /// The file's current tag does not satisfy the writer's condition.
    case preconditionFailed(path: String, current: EntityTag?)
    /// The set as it would be after the change does not validate.
    case invalid([SpecError])
    /// The folder could not be read or written; the message names the file relative to it.
    case fileSystem(String)
    /// The disk (or the user's quota) is full: nothing was written.
    case insufficientStorage(String)
    /// The bundle the store holds now does not satisfy the writer's condition.
    case bundleChanged(current: EntityTag?)
    /// The store cannot be reached (etcd down, no leader): nothing was written.
    case unavailable(String)
    /// The revision asked for was compacted away.
    case revisionCompacted(Int64)
    /// The revision asked for is older than a folder's history keeps (``FolderHistory``).
    case revisionPruned(Int64)
    /// A promotion named a version its source does not have (by ETag), said in a sentence.
    case versionNotFound(String)
    /// The revision asked for does not exist yet.
    case revisionInFuture(Int64)
    /// The store answered something unexpected.
    case storeFailed(String)
    /// Other writers kept changing the specs while this one retried, this many times.
    case tooManyRaces(Int)
    /// The change names more files than ``SpecWriter/maxFiles``.
    case tooManyFiles(Int)
    /// The writer's task was cancelled (its client went away) while it waited for an earlier
    /// write: nothing was written.
    case cancelled
    /// The change carries more bytes than ``SpecWriter/maxBytes``.
    case changeTooLarge(Int)
    /// A rollout runs (its id): the stable version changes only by completing or aborting it.
    case rolloutRunning(String)
}
