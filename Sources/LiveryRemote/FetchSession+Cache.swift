import Foundation
import Logging

extension FetchSession {
    /// Publishes the cached bundle, if there is a good one, and takes its validators for the
    /// first request, so an unchanged bundle is a 304. A cache that cannot be read, or is
    /// truncated or corrupt, is published as a failure and nothing of it is used.
    func startFromCache() {
        guard let cache else { return }
        let entry: BundleCache.Entry
        do {
            guard let found = try cache.load() else { return }
            entry = found
        } catch {
            logger.error("offline cache ignored", metadata: ["livery.remote.error": "\(error)"])
            output.yield(.failed(error))
            return
        }
        let fresh = gate
        // A new gate publishes whatever it is given first.
        guard
            let update = gate.consider(
                entry.body, etag: entry.etag, lastModified: entry.lastModified, format: entry.format,
                source: cache.file.path, endpoint: nil)
        else { return }
        switch update {
        case .loaded(_, let version):
            etag = entry.etag
            lastModified = entry.lastModified
            lastEventID = entry.etag ?? ""
            logger.info("loaded the offline cache", metadata: ["livery.remote.version": "\(version)"])
            unsettled = version.digest
            output.yield(update)
        case .failed(let error):
            // The file was written from a spec that applied: the registry, the limits or the
            // unknown-trait policy changed.
            gate = fresh  // nothing of the refused file may hide the network's answer
            logger.error("offline cache ignored", metadata: ["livery.remote.error": "\(error)"])
            output.yield(.failed(error))
        }
    }

}
