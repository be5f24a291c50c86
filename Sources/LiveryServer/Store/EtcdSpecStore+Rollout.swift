import Foundation
import Livery
import Logging

extension EtcdSpecStore {
    /// The rollout as etcd holds it, with the key's mod revision (0 when there is none).
    struct RolloutState: Sendable {
        var record: RolloutRecord?
        var modRevision: Int64
    }

    /// What the rollout watch reports: the rollout key changed, or a report was written.
    enum RolloutChange: Sendable {
        /// The rollout key as it is now.
        case record(RolloutState)
        /// A cohort client's refusal or problem report, written by one of the daemons.
        case report(RolloutReport)
    }

    /// Writes `record` if the rollout key still has `modRevision` (0: still absent), with a
    /// history record saying what happened (`event`), in one transaction that also removes the
    /// reports of every other rollout; the key's new mod revision, or `nil` when another daemon
    /// changed the rollout first.
    func putRollout(_ record: RolloutRecord, over modRevision: Int64, event: String) async throws(StoreError) -> Int64?
    {
        let key = configuration.rolloutKey
        let value: Data
        do {
            value = try JSONEncoder().encode(record)
        } catch {
            throw .storeFailed("cannot encode the rollout: \(error)")
        }
        let reports = configuration.rolloutReportsPrefix
        let own = reports + record.rollout.id + "/"
        let now = Date()
        let history = PublishRecord(time: ISO8601DateFormatter().string(from: now), message: event, paths: [])
        do {
            let (succeeded, revision) = try await client.transaction(
                if: [modRevision == 0 ? .absent(key: key) : .modRevision(key: key, equals: modRevision)],
                then: [
                    .put(key: key, value: value),
                    .put(key: configuration.historyPrefix + Self.recordName(at: now), value: history.encoded),
                    .delete(key: reports, rangeEnd: own),
                    .delete(key: EtcdClient.prefixEnd(own), rangeEnd: EtcdClient.prefixEnd(reports)),
                ])
            return succeeded ? revision : nil
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Records `report` under its instance's key unless one is there, so that an instance
    /// counts once however many requests and daemons carry its report.
    func putReport(_ report: RolloutReport) async throws(StoreError) {
        let key = configuration.rolloutReportsPrefix + report.rollout + "/" + report.instance
        let value: Data
        do {
            value = try JSONEncoder().encode(report)
        } catch {
            throw .storeFailed("cannot encode the rollout report: \(error)")
        }
        do {
            _ = try await client.transaction(if: [.absent(key: key)], then: [.put(key: key, value: value)])
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The rollout and its reports now, then each change of them, until the consumer stops
    /// iterating: one watch on every key that starts with the rollout key. A broken watch reads
    /// them again; retries back off from 100 ms to 2 s.
    func followRollout() -> AsyncStream<RolloutChange> {
        AsyncStream { continuation in
            let task = Task {
                let key = configuration.rolloutKey
                let end = EtcdClient.prefixEnd(key)
                var delay = Duration.milliseconds(100)
                while !Task.isCancelled {
                    do {
                        let (kvs, revision) = try await client.range(key: key, rangeEnd: end)
                        continuation.yield(.record(Self.rolloutState(kvs.first { $0.key == key }, logger: logger)))
                        for keyValue in kvs where keyValue.key != key {
                            if let report = Self.decoded(RolloutReport.self, keyValue, logger: logger) {
                                continuation.yield(.report(report))
                            }
                        }
                        _ = try await client.watch(
                            key: key, rangeEnd: end, from: revision + 1, silenceLimit: configuration.watchSilenceLimit
                        ) { message in
                            if case .changes(let events, _) = message {
                                for event in events {
                                    Self.yield(event, rolloutKey: key, to: continuation, logger: logger)
                                }
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

    /// Hands on what `event` changed: the rollout key, or a new report (removed reports are
    /// those of ended rollouts, which count no more).
    private static func yield(
        _ event: EtcdClient.WatchEvent, rolloutKey: String, to continuation: AsyncStream<RolloutChange>.Continuation,
        logger: Logger
    ) {
        if event.keyValue.key == rolloutKey {
            let state =
                event.isDelete
                ? RolloutState(record: nil, modRevision: 0) : rolloutState(event.keyValue, logger: logger)
            continuation.yield(.record(state))
        } else if !event.isDelete, let report = decoded(RolloutReport.self, event.keyValue, logger: logger) {
            continuation.yield(.report(report))
        }
    }

    private static func rolloutState(_ keyValue: EtcdClient.KeyValue?, logger: Logger) -> RolloutState {
        guard let keyValue else { return RolloutState(record: nil, modRevision: 0) }
        return RolloutState(
            record: decoded(RolloutRecord.self, keyValue, logger: logger), modRevision: keyValue.modRevision)
    }

    /// The value of `keyValue` as `type`; nil, and a warning naming the key, when it is not one
    /// (a value written into the rollout's keys by something other than a daemon).
    private static func decoded<T: Decodable>(_ type: T.Type, _ keyValue: EtcdClient.KeyValue, logger: Logger) -> T? {
        do {
            return try JSONDecoder().decode(type, from: keyValue.value)
        } catch {
            logger.warning(
                "a rollout key in etcd holds no rollout value; ignored",
                metadata: ["livery.key": "\(keyValue.key)", "livery.error": "\(error)"])
            return nil
        }
    }
}
