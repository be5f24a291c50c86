import Synchronization

/// How many commits a ``SpecWriter`` made: tells a cache of the store's content that it changed
/// before the store's follower (watcher or etcd watch) reports the change.
final class CommitCounter: Sendable {
    private let count = Atomic(0)

    /// Counts one commit.
    func increment() {
        count.add(1, ordering: .sequentiallyConsistent)
    }

    /// The commits so far.
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
