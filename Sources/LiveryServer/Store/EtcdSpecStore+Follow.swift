import Foundation
import Livery
import Logging

extension EtcdSpecStore {
    /// What following the store reports.
    enum FollowEvent: Sendable {
        /// The files at a revision, or the error that keeps them from forming a source set (a
        /// key or value put by hand that breaks the rules).
        case files(Result<SpecSourceSet, SpecError>, revision: Int64)
        /// etcd answers again: the watch is in place.
        case reachable
        /// etcd cannot be reached; the follower keeps trying.
        case unreachable(String)
    }

    /// Reads the specs at one revision, then follows them with one prefix watch from the next
    /// revision, until the consumer stops iterating.
    ///
    /// A broken watch resumes from the revision after the last change received, so nothing is
    /// missed; a watch cancelled because its revision was compacted reads the prefix again.
    /// A watch silent for ``EtcdStoreConfiguration/watchSilenceLimit`` is made again at once: a
    /// partition that keeps the connection open but lets nothing through shows as a new watch
    /// that is not confirmed in time, and so as unreachable. Retries back off from 100 ms to 2 s.
    func follow() -> AsyncStream<FollowEvent> {
        AsyncStream { continuation in
            let task = Task { await self.follow(into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func follow(into out: AsyncStream<FollowEvent>.Continuation) async {
        let specs = configuration.specsPrefix
        let end = EtcdClient.prefixEnd(specs)
        var files: [String: Data]?
        var revision: Int64 = 0
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                if files == nil {
                    let (kvs, readRevision) = try await client.range(key: specs, rangeEnd: end)
                    files = Dictionary(
                        kvs.map { (String($0.key.dropFirst(specs.count)), $0.value) }, uniquingKeysWith: { $1 })
                    revision = readRevision
                    out.yield(.files(Result { () throws(SpecError) in try sources(files ?? [:]) }, revision: revision))
                }
                let ended = try await client.watch(
                    key: specs, rangeEnd: end, from: revision + 1, silenceLimit: configuration.watchSilenceLimit
                ) { message in
                    switch message {
                    case .created:
                        delay = .milliseconds(100)
                        out.yield(.reachable)
                        return true
                    case .changes(let events, let newRevision):
                        for event in events {
                            let path = String(event.keyValue.key.dropFirst(specs.count))
                            files?[path] = event.isDelete ? nil : event.keyValue.value
                        }
                        revision = newRevision
                        out.yield(
                            .files(Result { () throws(SpecError) in try sources(files ?? [:]) }, revision: revision))
                        return !Task.isCancelled
                    case .compacted(let compactRevision):
                        logger.notice(
                            "watch compacted; reading the specs again",
                            metadata: ["livery.compactRevision": "\(compactRevision)"])
                        files = nil
                        return false
                    }
                }
                if ended == .silent {
                    logger.debug("watch silent; watching again", metadata: ["livery.revision": "\(revision)"])
                } else if ended == .closed, files != nil, !Task.isCancelled {
                    out.yield(.unreachable("etcd closed the watch"))
                    try await Task.sleep(for: delay)
                }
            } catch {
                out.yield(.unreachable("\(error)"))
                logger.warning(
                    "etcd unreachable; retrying",
                    metadata: ["livery.error": "\(error)", "livery.revision": "\(revision)"])
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
