import Logging
/// Keeping the session's inotify watches in line with the folders a scan found.
import Synchronization

extension WatchEngine {
    /// How many scan-and-watch rounds one scan may take before it leaves the rest to the next.
    private static var maximumRounds: Int { 8 }

    /// Scans, places the missing watches, and scans again as long as new watches were placed:
    /// entries created in a new folder before its watch existed produced no event, so only a
    /// scan after the watch is in place is sure to see them.
    func scanAndWatch() async -> FolderSnapshot {
        var snapshot = scanner.scan()
        for _ in 0..<Self.maximumRounds {
            guard await reconcile(with: snapshot.folders), !Task.isCancelled else { return snapshot }
            snapshot = scanner.scan()
        }
        // A tree still growing: the latest watches may have missed something, so scan again soon.
        noteActivity()
        return snapshot
    }

    /// Removes watches that are no longer wanted (or whose folder was replaced by another with the
    /// same path), places the missing ones, and switches periodic rescans on while any folder is
    /// left unwatched. Returns whether a watch was placed.
    private func reconcile(with wanted: [String: FileID]) async -> Bool {
        for (path, placed) in watched where wanted[path] != placed.folder {
            session.owner.removeWatch(placed.descriptor, for: session.id)
            watched[path] = nil
        }
        var placedAny = false
        var failure: WatchError?
        var vanished: Set<String> = []
        for path in wanted.keys.sorted() where watched[path] == nil {
            switch await session.owner.addWatch(folder: path, for: session.id) {
            case .success(let placed):
                watched[path] = placed
                placedAny = true
            case .failure(.stopped):
                return false
            case .failure(.failed(let error)) where error.code == .folderMissing:
                vanished.insert(path)  // deleted since the scan: the next scan will not want it
            case .failure(.failed(let error)):
                logger.debug("cannot watch", metadata: metadata(adding: ["livery.error": "\(error)"]))
                failure = failure ?? error
            }
        }
        if !vanished.isEmpty { noteActivity() }
        let unwatched = wanted.keys.filter { watched[$0] == nil && !vanished.contains($0) }
        session.statistics.withLock { $0.watchedFolders = watched.count }
        updateCoverage(complete: unwatched.isEmpty, failure: failure)
        return placedAny
    }

    /// Switches periodic rescans on or off and reports the first problem of an episode once.
    private func updateCoverage(complete: Bool, failure: WatchError?) {
        switch (coverage, complete) {
        case (.complete, true):
            return
        case (.incomplete, true):
            coverage = .complete
            logger.info("inotify covers the folder again; periodic rescans stop", metadata: metadata)
            setPeriodicRescans(false)
        case (.complete, false), (.incomplete(reported: false), false):
            // Reported once per episode; the content keeps being published by the rescans.
            coverage = .incomplete(reported: failure != nil)
            setPeriodicRescans(true)
            if let failure {
                publish(.failed(failure), hash: nil)
            }
        case (.incomplete(reported: true), false):
            return
        }
    }

    private func setPeriodicRescans(_ enabled: Bool) {
        session.statistics.withLock { $0.isRescanningPeriodically = enabled }
        guard enabled else {
            rescanTimer?.cancel()
            rescanTimer = nil
            return
        }
        guard rescanTimer == nil else { return }
        let interval = configuration.rescanInterval
        let input = session.input
        rescanTimer = Task {
            while true {
                do { try await Task.sleep(for: interval) } catch { return }  // stopped
                input.yield(.rescanTimer)
            }
        }
    }
}
