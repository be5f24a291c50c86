import Foundation
import Livery

/// What following a store (``SpecStore/follow(loading:into:)``) reports.
enum StoreEvent: Sendable {
    /// The spec files as they are now, read and staged for loading, or why they cannot be; with
    /// the store's revision where it has one (etcd).
    case specs(Result<SpecFolderLoader.Stage, any Error>, revision: Int64?)
    /// The store answers again: it is followed.
    case reachable
    /// The store cannot be reached; the store keeps trying, and the last good bundle stays.
    case unreachable(String)
    /// A record as the store holds it now: read at the start of following, or changed since by
    /// another daemon on the same store.
    case record(StoreRecord)
    /// A report added to the record named `record` (``SpecStore/add(report:onRecord:group:key:)``),
    /// by this daemon or another one.
    case report(record: String, Data)
}
