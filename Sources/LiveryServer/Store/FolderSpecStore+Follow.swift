import Foundation
import Livery
import LiveryWatch
import Logging

extension FolderSpecStore {
    /// A read of the folder, with whether a batch overlapped it.
    private struct GatedRead: Sendable {
        var stage: Result<SpecFolderLoader.Stage, any Error>
        var mark: BatchGate.Mark
        var quiet: Bool
    }

    /// Follows the folder through a ``LiveryWatch/FolderWatcher``: edits on disk and this store's
    /// commits (which only write files) both arrive through it. A read that overlapped a commit
    /// of several files is dropped, and the end of such a commit reads the folder again
    /// (``BatchGate``), so a batch is never handed on half written; of two reads the later one
    /// wins. Reports added to a record are handed on as they are added. First removes the
    /// temporary files an interrupted write left behind.
    nonisolated func follow(
        loading loader: SpecFolderLoader, into receive: @escaping @Sendable (StoreEvent) async -> Void
    ) async {
        removeLeftoverTemporaryFiles()
        let gate = self.gate
        let read: @Sendable (() throws -> SpecFolderLoader.Stage) -> GatedRead = { read in
            let mark = gate.mark()
            let stage = Result { try read() }
            return GatedRead(stage: stage, mark: mark, quiet: gate.isQuiet(since: mark))
        }
        let watcher = FolderWatcher(
            directory: directory, loader: loader, configuration: watch, logger: logger, around: read)
        let (reads, sink) = AsyncStream.makeStream(of: Result<GatedRead, any Error>.self)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await update in watcher {
                    switch update {
                    case .loaded(let gated, _): sink.yield(.success(gated))
                    case .failed(let error): sink.yield(.failure(error))
                    }
                }
                sink.finish()
            }
            // A batch that ended may have been seen only half written, or not at all: read again.
            group.addTask {
                for await _ in gate.ends { sink.yield(.success(read { try loader.read(self.directory) })) }
            }
            group.addTask {
                for await report in self.reports { await receive(report) }
            }
            var latest = 0
            for await next in reads {
                switch next {
                case .failure(let error):
                    await receive(.specs(.failure(error), revision: nil))
                case .success(let gated) where gated.quiet && gated.mark.sequence > latest:
                    latest = gated.mark.sequence
                    await receive(.specs(gated.stage, revision: nil))
                case .success:
                    logger.debug("skipped a read that overlapped a batch write, or an earlier one")
                }
            }
            group.cancelAll()
        }
        await watcher.stop()
    }

    /// A daemon killed in the middle of a write (`kill -9`, a power cut) leaves its hidden
    /// temporary file behind; the watcher never reads it, and the next start removes it.
    private nonisolated func removeLeftoverTemporaryFiles() {
        for path in AtomicFile.leftovers(in: directory.path) {
            if unlink(path) == 0 {
                logger.notice(
                    "removed a temporary file left by an interrupted write", metadata: ["livery.path": "\(path)"])
            } else {
                logger.warning(
                    "cannot remove a leftover temporary file",
                    metadata: ["livery.path": "\(path)", "livery.errno": "\(errno)"])
            }
        }
    }
}
