import Dispatch
import Foundation
import Logging
import Synchronization

/// Keeps the offline cache at the last bundle the consumer applied, not merely the last that
/// parsed: a bundle the provider rejects (an unknown trait type, a target that lacks a
/// capability) must not be what the next start applies.
///
/// The session offers each bundle it publishes; ``AppliedVersion/record(_:skipped:)`` hands the
/// version the consumer applied, and only then is its bundle written.
final class AppliedBundleKeeper: Sendable {
    private struct Offered {
        let digest: BodyDigest
        let entry: BundleCache.Entry
    }

    /// Bundles published but not yet recorded as applied. A consumer applies them in order and
    /// soon, so a few are enough.
    static let maxOffered = 8

    private let cache: BundleCache
    private let output: AsyncStream<RemoteUpdate>.Continuation
    private let logger: Logger
    private let offered = Mutex<[Offered]>([])
    private let writer = DispatchQueue(label: "livery.remote.offline-cache")

    init(cache: BundleCache, output: AsyncStream<RemoteUpdate>.Continuation, logger: Logger) {
        self.cache = cache
        self.output = output
        self.logger = logger
    }

    /// Remembers the bundle of a published version until the consumer applies it, or newer ones
    /// push it out.
    func offer(_ entry: BundleCache.Entry, digest: BodyDigest) {
        offered.withLock { offered in
            offered.append(Offered(digest: digest, entry: entry))
            if offered.count > Self.maxOffered { offered.removeFirst(offered.count - Self.maxOffered) }
        }
    }

    /// Writes the bundle of `version` to the cache if it is one offered (the bundle read from the
    /// cache itself is not), and forgets it and older ones. The write (with its fsyncs) runs on
    /// the keeper's own queue, never on the caller's thread, which is often the main actor. A
    /// failure to write is published as a failure; what is applied stays applied.
    func applied(_ version: RemoteVersion) {
        // Queued under the lock: two versions recorded at once from two threads must reach the
        // file in the order they were recorded, and the queue is serial.
        offered.withLock { (offered: inout [Offered]) in
            guard let index = offered.lastIndex(where: { $0.digest == version.digest }) else { return }
            let entry = offered[index].entry
            offered.removeFirst(index + 1)
            writer.async { [cache, output, logger] in
                do throws(BundleCacheError) {
                    try cache.store(entry)
                } catch {
                    logger.error("offline cache not written", metadata: ["livery.remote.error": "\(error)"])
                    output.yield(.failed(error))
                }
            }
        }
    }
}
