import Synchronization

/// Stands in for `Task.sleep` in a source's configuration: records each delay asked for and
/// waits only a couple of milliseconds, so backoff tests run fast and can check every delay.
final class DelayRecorder: Sendable {
    private let recorded = Mutex<[Duration]>([])

    /// The delays asked for so far, in order.
    var delays: [Duration] { recorded.withLock { $0 } }

    /// The function to put in ``LiveryRemote/RemoteSpecSource/Configuration/sleep``.
    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] delay in
            recorded.withLock { $0.append(delay) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
