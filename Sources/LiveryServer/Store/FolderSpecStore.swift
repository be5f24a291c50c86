import CDispatch
import Foundation
import Livery
import LiveryWatch
import Logging

/// The specs folder as a ``SpecStore``: files read on demand, changes written atomically one
/// file at a time (temporary file, fsync, rename).
///
/// An actor, so that two commits cannot interleave: each one compares the folder with the
/// state its change was validated against and writes before the next one starts. The store never
/// publishes a bundle; the watcher sees the written files like any other edit, and the
/// ``BatchGate`` keeps it from publishing a batch of several files half written. A crash in the
/// middle of a batch (`kill -9`, power loss) leaves each file either old or new, never torn,
/// but can leave some files of the batch new and others old; the daemon then loads that mix at
/// its next start if it validates, and otherwise serves nothing until the folder is fixed.
///
/// Its history (``FolderHistory``) and records are files outside the folder
/// (``DaemonConfiguration/stateDirectory``), each written atomically; the records' reports are
/// kept in memory, since no other daemon shares them. A commit records its publish as it writes
/// the files; an edit made on disk is recorded by `disk` once the follower loaded it
/// (``recordLoaded()``). Both run on this actor, so a commit's own files are never recorded twice.
actor FolderSpecStore: SpecStore {
    let directory: URL
    private let limits: ReaderLimits
    /// Told when a commit of several files starts and ends.
    let gate = BatchGate()
    /// How the folder is watched.
    let watch: WatchConfiguration
    /// The file that keeps the record of each name.
    let recordFile: @Sendable (_ name: String) -> URL
    let logger: Logger
    /// The publishes, kept in the state folder.
    var publishes: FolderHistory
    /// The version of each record this store wrote or read; a record on disk not yet read is 1.
    var recordVersions: [String: Int64] = [:]
    /// The reports added, as `record/group/key`.
    var reportKeys: Set<String> = []
    /// The reports added, for the follower.
    let reports: AsyncStream<StoreEvent>
    let reportSink: AsyncStream<StoreEvent>.Continuation

    nonisolated let changeSource = "disk"

    init(
        directory: URL, limits: ReaderLimits, watch: WatchConfiguration,
        recordFile: @escaping @Sendable (_ name: String) -> URL, history: FolderHistory, logger: Logger
    ) {
        self.directory = directory
        self.publishes = history
        self.limits = limits
        self.watch = watch
        self.recordFile = recordFile
        self.logger = logger
        (reports, reportSink) = AsyncStream.makeStream(of: StoreEvent.self)
    }

    func read() throws(StoreError) -> StoreState {
        StoreState(sources: try readFolder())
    }

    func list() throws(StoreError) -> [SpecFileEntry] {
        let sources = try readFolder()
        return sources.sortedPaths.compactMap { sources.files[$0] }.map {
            SpecFileEntry(path: $0.path, etag: EntityTag(of: $0.data).description, size: $0.data.count)
        }
    }

    func file(_ rawPath: String) throws(StoreError) -> (path: String, data: Data, format: SpecFormat) {
        let path = try Self.validated(rawPath)
        try checkFolders(of: path)
        let full = directory.appending(path: path).path
        var info = stat()
        guard stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let format = SpecPath.format(of: path)
        else { throw .notFound(path) }
        let data: Data
        do throws(FileSystemError) {
            data = try LocalFile.contents(of: full)
        } catch {
            throw .fileSystem(error.description)
        }
        return (path, data, format)
    }

    func checkWritable(_ paths: [String]) throws(StoreError) {
        for path in paths {
            try checkFolders(of: path)
            try checkNotALink(path)
        }
    }

    /// Writes every file of `change` if the folder still holds what `state` read; the files
    /// others left alone are compared too, since the change was validated together with them.
    /// The new files' blobs are written before any file is and put in place with the revision
    /// after, so a full disk refuses the write whole; a history that cannot be written after the files were
    /// is logged, and the follower then records the files by `disk`.
    func commit(_ change: ChangeSet, over state: StoreState) throws(StoreError) -> CommitOutcome {
        try checkWritable(change.paths)
        let now = try readFolder()
        guard Self.sameFiles(now, state.sources) else { return .raced }
        var next = now
        for path in change.paths {
            do {
                try next.set(path, to: change.files[path] ?? nil)
            } catch {
                throw .forbiddenPath(error)
            }
        }
        let blobs = try mapped { () throws(FileSystemError) in try publishes.keepBlobs(of: next) }
        do throws(StoreError) {
            let batch = change.files.count > 1
            if batch { gate.begin() }
            defer { if batch { gate.end() } }
            for path in change.paths {
                try write(change.files[path] ?? nil, to: path)
            }
        } catch {
            blobs.discard()
            throw error
        }
        do {
            return .committed(
                revision: try publishes.append(
                    blobs: blobs, paths: change.paths, message: change.message, by: change.author))
        } catch {
            logger.error("cannot record a publish in the history", metadata: ["livery.error": "\(error)"])
            return .committed(revision: nil)
        }
    }

    func history(limit: Int) throws(StoreError) -> [HistoryEntry] {
        try mapped { () throws(FileSystemError) in try publishes.entries(limit: limit) }
    }

    func read(atRevision revision: Int64) throws(StoreError) -> StoreState {
        StoreState(sources: try publishes.sources(at: revision))
    }

    /// Records the folder as it is now by `disk` if it differs from the newest revision: the
    /// follower just loaded it, and it was not a commit of this store, which records its own.
    func recordLoaded() {
        do throws(StoreError) {
            let now = try readFolder()
            try mapped { () throws(FileSystemError) in
                let paths = try publishes.changedPaths(to: now)
                guard !paths.isEmpty else { return }
                let blobs = try publishes.keepBlobs(of: now)
                _ = try publishes.append(blobs: blobs, paths: paths, message: "edited on disk", by: "disk")
            }
        } catch {
            logger.error("cannot record an edit on disk in the history", metadata: ["livery.error": "\(error)"])
        }
    }

    /// A file error of the history, as a store error: a full disk is 507, like the folder's.
    private func mapped<T>(_ body: () throws(FileSystemError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch  where error.errno == ENOSPC || error.errno == EDQUOT {
            throw .insufficientStorage(error.description)
        } catch {
            throw .fileSystem(error.description)
        }
    }

    private func write(_ data: Data?, to path: String) throws(StoreError) {
        let url = directory.appending(path: path)
        do {
            if let data {
                try makeFolders(of: path)
                try AtomicFile.write(data, to: url)
            } else {
                try AtomicFile.remove(url)
            }
        } catch  where error.errno == ENOSPC || error.errno == EDQUOT {
            throw .insufficientStorage(error.description)
        } catch {
            throw .fileSystem(error.description)
        }
    }

    private static func sameFiles(_ a: SpecSourceSet, _ b: SpecSourceSet) -> Bool {
        a.files.count == b.files.count && a.files.allSatisfy { path, file in b.files[path]?.data == file.data }
    }

    private static func validated(_ rawPath: String) throws(StoreError) -> String {
        do {
            return try SpecPath.validate(rawPath)
        } catch {
            throw .forbiddenPath(error)
        }
    }

    private func readFolder() throws(StoreError) -> SpecSourceSet {
        do {
            return try SpecSourceSet(directory: directory, limits: limits)
        } catch  where error.code == .io {
            throw .fileSystem(error.description)
        } catch {
            // A file on disk over the size limit: the folder as a whole does not validate.
            throw .invalid([error])
        }
    }

    /// Refuses a path whose folders are not plain folders: a link to a folder elsewhere would
    /// let a push write outside the specs folder.
    private func checkFolders(of path: String) throws(StoreError) {
        var folder = directory.path
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            var info = stat()
            guard lstat(folder, &info) == 0 else { return }  // missing: created on write
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .forbiddenPath(
                    SpecError(
                        .forbiddenPath, at: .start(of: path),
                        "'\(path)' passes through '\(component)', which is not a plain folder (a file or a symbolic link)"
                    ))
            }
        }
    }

    /// Refuses a path that is a symbolic link: the folder's owner may link a file in for
    /// reading, but a push must never write (or delete) through a link to somewhere else.
    private func checkNotALink(_ path: String) throws(StoreError) {
        var info = stat()
        guard lstat(directory.appending(path: path).path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        throw .forbiddenPath(
            SpecError(
                .forbiddenPath, at: .start(of: path),
                "'\(path)' is a symbolic link; pushes replace only plain files of the specs folder"))
    }

    private func makeFolders(of path: String) throws(FileSystemError) {
        var folder = directory.path
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            var info = stat()
            if lstat(folder, &info) != 0 { try AtomicFile.makeFolder(folder) }
        }
    }
}
