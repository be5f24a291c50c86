import Synchronization

/// Which rollout runs now, read by ``SpecWriter`` before every write: while one runs, a write to
/// the stable version is refused (409), so that the candidate always differs from the stable
/// version it was validated over by the candidate push alone.
final class RolloutGate: Sendable {
    private let running = Mutex<String?>(nil)

    /// The id of the running rollout, if any.
    var runningID: String? { running.withLock { $0 } }

    /// Records the rollout that runs now (`nil`: none).
    func set(running id: String?) {
        running.withLock { $0 = id }
    }
}
