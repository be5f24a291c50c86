import Foundation
import Livery
import Logging

extension EtcdSpecStore {
    /// The rollout as etcd holds it, with the key's mod revision (0 when there is none).
    struct RolloutState: Sendable {
        var record: RolloutRecord?
        var modRevision: Int64
    }

    /// Writes `record` if the rollout key still has `modRevision` (0: still absent), with a
    /// history record saying what happened (`event`), in one transaction; the key's new mod
    /// revision, or `nil` when another daemon changed the rollout first.
    func putRollout(_ record: RolloutRecord, over modRevision: Int64, event: String) async throws(StoreError) -> Int64?
    {
        let key = configuration.rolloutKey
        let value: Data
        do {
            value = try JSONEncoder().encode(record)
        } catch {
            throw .storeFailed("cannot encode the rollout: \(error)")
        }
        let now = Date()
        let history = PublishRecord(time: ISO8601DateFormatter().string(from: now), message: event, paths: [])
        do {
            let (succeeded, revision) = try await client.transaction(
                if: [modRevision == 0 ? .absent(key: key) : .modRevision(key: key, equals: modRevision)],
                then: [
                    .put(key: key, value: value),
                    .put(key: configuration.historyPrefix + Self.recordName(at: now), value: history.encoded),
                ])
            return succeeded ? revision : nil
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The rollout now, then each change of it, until the consumer stops iterating. A broken
    /// watch reads the key again; retries back off from 100 ms to 2 s.
    func followRollout() -> AsyncStream<RolloutState> {
        AsyncStream { continuation in
            let task = Task {
                let key = configuration.rolloutKey
                var delay = Duration.milliseconds(100)
                while !Task.isCancelled {
                    do {
                        let (kvs, revision) = try await client.range(key: key, rangeEnd: key + "\0")
                        continuation.yield(Self.rolloutState(kvs.first))
                        _ = try await client.watch(
                            key: key, rangeEnd: key + "\0", from: revision + 1,
                            silenceLimit: configuration.watchSilenceLimit
                        ) { message in
                            if case .changes(let events, _) = message, let event = events.last {
                                continuation.yield(
                                    event.isDelete
                                        ? RolloutState(record: nil, modRevision: 0) : Self.rolloutState(event.keyValue))
                            }
                            delay = .milliseconds(100)
                            return !Task.isCancelled
                        }
                    } catch {
                        logger.warning(
                            "cannot follow the rollout in etcd; retrying", metadata: ["livery.error": "\(error)"])
                        do {
                            try await Task.sleep(for: delay)
                        } catch {
                            break
                        }
                        delay = min(delay * 2, .seconds(2))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func rolloutState(_ keyValue: EtcdClient.KeyValue?) -> RolloutState {
        guard let keyValue else { return RolloutState(record: nil, modRevision: 0) }
        return RolloutState(
            record: try? JSONDecoder().decode(RolloutRecord.self, from: keyValue.value),
            modRevision: keyValue.modRevision)
    }
}
