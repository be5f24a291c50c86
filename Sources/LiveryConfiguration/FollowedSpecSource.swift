package import Livery

/// A source of specs that ``SpecConfigProvider`` reads again and follows, added by a module of
/// its own (the folder, `LiveryConfigurationFolder`, which links inotify), so that a program
/// that follows only a daemon links no watcher.
package protocol FollowedSpecSource: Sendable {
    /// Reads the source now.
    func read() async throws -> Spec

    /// Calls `update` with each change, the spec or why it did not load, until the task is
    /// cancelled or the service group shuts down gracefully.
    func follow(_ update: (Result<Spec, any Error>) -> Void) async
}
