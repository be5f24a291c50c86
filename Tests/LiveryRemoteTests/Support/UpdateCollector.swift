import Livery
import LiveryRemote
import Synchronization
import Testing

/// Iterates a source in a task of its own and keeps every update, so a test can wait for some
/// and check that no others came. With `recordingApplied`, it acts as a consumer that applies
/// every spec: it records each one's version in the source's `appliedVersion`.
final class UpdateCollector: Sendable {
    private let storage = Mutex<[RemoteUpdate]>([])
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ source: RemoteSpecSource, recordingApplied: Bool = false) {
        let task = Task { [self] in
            for await update in source {
                if recordingApplied, case .loaded(_, let version) = update { source.appliedVersion.record(version) }
                storage.withLock { $0.append(update) }
            }
        }
        self.task.withLock { $0 = task }
    }

    /// Every update so far.
    var updates: [RemoteUpdate] { storage.withLock { $0 } }

    /// The specs loaded so far.
    var loaded: [Spec] { updates.compactMap(\.spec) }

    /// The failures so far.
    var failures: [any Error] { updates.compactMap(\.error) }

    /// Waits until `condition` holds for the updates, or records an issue after `timeout`.
    @discardableResult
    func wait(
        timeout: Duration = .seconds(10),
        sourceLocation: Testing.SourceLocation = #_sourceLocation,
        until condition: ([RemoteUpdate]) -> Bool
    ) async throws -> [RemoteUpdate] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let updates = self.updates
            if condition(updates) { return updates }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting; updates so far: \(updates.map(Self.describe))", sourceLocation: sourceLocation)
        return updates
    }

    /// Waits until `count` specs have loaded.
    @discardableResult
    func waitForLoaded(_ count: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> [Spec] {
        try await wait(sourceLocation: sourceLocation) { $0.compactMap(\.spec).count >= count }.compactMap(\.spec)
    }

    /// Stops iterating and waits for the task to end.
    func cancel() async {
        let task = task.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    static func describe(_ update: RemoteUpdate) -> String {
        switch update {
        case .loaded(let spec, let version): "loaded(radius \(radius(spec)), \(version))"
        case .failed(let error): "failed(\(error))"
        }
    }
}
