import Foundation

/// One of the few small named records a store keeps beside its spec set (the staged rollout is
/// `rollout`), with the version a write compares against.
///
/// A record is its bytes, written whole; its reports (``SpecStore/add(report:onRecord:group:key:)``)
/// are small values any daemon adds once each, such as a client's refusal of a rollout.
struct StoreRecord: Sendable, Equatable {
    /// The record's name: letters, digits and `-`, unique within the spec set.
    var name: String
    /// The bytes, `nil` when the store holds no such record.
    var data: Data?
    /// Changes with every write: etcd's mod revision of the record's key, a count of writes for
    /// a folder; 0 while the record is absent.
    var version: Int64
}
