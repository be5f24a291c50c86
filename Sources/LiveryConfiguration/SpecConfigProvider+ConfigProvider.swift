public import Configuration
import Foundation
import Synchronization

extension SpecConfigProvider: ConfigProvider {
    /// The current value for `key`, converted to `type`.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try state.withLock { $0.values }.value(forKey: key, type: type)
    }

    /// Reads the folder, or fetches from the daemon, now, and returns the value from what it
    /// read; if that does not load, the error is thrown and the last good values stay.
    nonisolated(nonsending) public func fetchValue(
        forKey key: AbsoluteConfigKey, type: ConfigType
    ) async throws -> LookupResult {
        try await refresh()
        return try value(forKey: key, type: type)
    }

    /// Gives `updatesHandler` the current value at once, then the value each time a change of
    /// the spec or the theme changes it (a conversion error is a value too).
    nonisolated(nonsending) public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>
            .makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        let initial = state.withLock { state in
            let initial = Result { try state.values.value(forKey: key, type: type) }
            state.valueWatchers[id] = ValueWatcher(key: key, type: type, last: initial, continuation: continuation)
            return initial
        }
        defer { state.withLock { $0.valueWatchers[id] = nil } }
        continuation.yield(initial)
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// The current values, fixed.
    public func snapshot() -> any ConfigSnapshot {
        state.withLock { $0.values }
    }

    /// Gives `updatesHandler` the current snapshot at once, then one after each change.
    nonisolated(nonsending) public func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        let initial = state.withLock { state in
            state.snapshotWatchers[id] = continuation
            return state.values
        }
        defer { state.withLock { $0.snapshotWatchers[id] = nil } }
        continuation.yield(initial)
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }
}
