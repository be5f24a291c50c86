import Foundation
import Logging

extension EtcdClient {
    /// What following a prefix (``follow(prefix:silenceLimit:)``) reports.
    package enum FollowEvent: Sendable {
        /// Every key under the prefix at `revision`: at the start, and again after the revisions
        /// the watch would resume from were compacted. What was known before is replaced.
        case snapshot([KeyValue], revision: Int64)
        /// The keys one revision changed (a catch-up message may hold several).
        case changes([WatchEvent], revision: Int64)
        /// etcd answers again: the watch is in place.
        case reachable
        /// etcd cannot be reached, or closed the watch; the follower keeps trying.
        case unreachable(String)
    }

    /// Reads every key under `prefix` at one revision, then follows them with one watch from the
    /// next revision, until the consumer stops iterating. The one loop of range, watch and
    /// back-off, so that whatever follows keys in etcd survives the same faults:
    ///
    /// - a broken watch resumes from the revision after the last change received, so nothing is
    ///   missed;
    /// - a watch cancelled because that revision was compacted reads the prefix again
    ///   (``FollowEvent/snapshot(_:revision:)``);
    /// - a stream etcd closed is reported unreachable and watched again after the back-off;
    /// - a watch silent for `silenceLimit` is made again at once: a partition that keeps the
    ///   connection open but lets nothing through shows as a new watch that is not confirmed in
    ///   time, and so as unreachable.
    ///
    /// Retries back off from 100 ms to 2 s.
    package func follow(prefix: String, silenceLimit: Duration) -> AsyncStream<FollowEvent> {
        AsyncStream { continuation in
            let task = Task { await self.follow(prefix: prefix, silenceLimit: silenceLimit, into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func follow(prefix: String, silenceLimit: Duration, into out: AsyncStream<FollowEvent>.Continuation) async {
        let end = Self.prefixEnd(prefix)
        // The revision of the last state handed on; `nil` until the prefix is read (again).
        var revision: Int64?
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let start: Int64
                if let revision {
                    start = revision + 1
                } else {
                    let (keyValues, readRevision) = try await range(key: prefix, rangeEnd: end)
                    out.yield(.snapshot(keyValues, revision: readRevision))
                    revision = readRevision
                    start = readRevision + 1
                }
                let ended = try await watch(key: prefix, rangeEnd: end, from: start, silenceLimit: silenceLimit) {
                    message in
                    switch message {
                    case .created:
                        delay = .milliseconds(100)
                        out.yield(.reachable)
                        return true
                    case .changes(let events, let newRevision):
                        revision = newRevision
                        out.yield(.changes(events, revision: newRevision))
                        return !Task.isCancelled
                    case .compacted(let compactRevision):
                        logger.notice(
                            "watch compacted; reading the prefix again",
                            metadata: ["livery.prefix": "\(prefix)", "livery.compactRevision": "\(compactRevision)"])
                        revision = nil
                        return false
                    }
                }
                if ended == .silent {
                    logger.debug("watch silent; watching again", metadata: ["livery.prefix": "\(prefix)"])
                } else if ended == .closed, !Task.isCancelled {
                    out.yield(.unreachable("etcd closed the watch"))
                    try await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(2))
                }
            } catch {
                out.yield(.unreachable("\(error)"))
                logger.warning(
                    "etcd unreachable; retrying",
                    metadata: ["livery.prefix": "\(prefix)", "livery.error": "\(error)"])
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    break
                }
                delay = min(delay * 2, .seconds(2))
            }
        }
        out.finish()
    }
}
