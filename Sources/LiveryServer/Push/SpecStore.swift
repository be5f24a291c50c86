import Foundation
import Livery

/// The specs folder as pushes see it: files read on demand, changes validated against the
/// whole folder and written atomically.
///
/// An actor so that two pushes cannot interleave: each one reads the folder, validates the
/// result of its change and writes it before the next one starts. The store never publishes
/// a bundle; the watcher sees the written file like any other edit.
actor SpecStore {
    let directory: URL
    private let limits: ReaderLimits
    private let registry: TraitRegistry

    init(directory: URL, limits: ReaderLimits, registry: TraitRegistry) {
        self.directory = directory
        self.limits = limits
        self.registry = registry
    }

    /// What a successful write did.
    struct WriteResult {
        var path: String
        var etag: EntityTag?
        var created: Bool
    }

    /// What a change did: written, or nothing yet because the folder with the change names
    /// allowed remote includes that `remote` has no documents for. The caller fetches those
    /// outside the actor (a push never holds it across network I/O) and tries again.
    enum ChangeOutcome {
        case written(WriteResult)
        case needsFetching([RemoteIncludeURL])
    }

    /// Every spec file with its tag and size, sorted by path.
    func list() throws(PushError) -> [SpecFileEntry] {
        let sources = try readFolder()
        return sources.sortedPaths.compactMap { sources.files[$0] }.map {
            SpecFileEntry(path: $0.path, etag: EntityTag(of: $0.data).description, size: $0.data.count)
        }
    }

    /// One file's bytes and format.
    func file(_ rawPath: String) throws(PushError) -> (path: String, data: Data, format: SpecFormat) {
        let path = try Self.validated(rawPath)
        try checkFolders(of: path)
        let full = directory.appending(path: path).path
        var info = stat()
        guard stat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let format = SpecPath.format(of: path)
        else { throw .notFound(path) }
        guard let data = FileManager.default.contents(atPath: full) else {
            throw .fileSystem("cannot read '\(full)'")
        }
        return (path, data, format)
    }

    /// Writes `data` to `rawPath` if the folder with that change validates.
    func put(
        _ rawPath: String, data: Data, ifMatch: EntityTagCondition?, remote: RemoteIncludes = .off
    ) throws(PushError) -> ChangeOutcome {
        try change(rawPath, to: data, ifMatch: ifMatch, remote: remote)
    }

    /// Removes `rawPath` if the folder without it validates.
    func delete(
        _ rawPath: String, ifMatch: EntityTagCondition?, remote: RemoteIncludes = .off
    ) throws(PushError) -> ChangeOutcome {
        try change(rawPath, to: nil, ifMatch: ifMatch, remote: remote)
    }

    private func change(
        _ rawPath: String, to data: Data?, ifMatch: EntityTagCondition?, remote: RemoteIncludes
    ) throws(PushError) -> ChangeOutcome {
        let path = try Self.validated(rawPath)
        try checkFolders(of: path)
        try checkNotALink(path)
        var sources = try readFolder()
        let current = sources.files[path].map { EntityTag(of: $0.data) }
        if let ifMatch, !ifMatch.matchesStrongly(current) {
            throw .preconditionFailed(path: path, current: current)
        }
        if data == nil, current == nil { throw .notFound(path) }
        do {
            try sources.set(path, to: data)
        } catch {
            throw .forbiddenPath(error)
        }
        let missing = Spec.missingRemoteIncludes(sources, limits: limits, remoteIncludes: remote)
        guard missing.isEmpty else { return .needsFetching(missing) }
        let errors = Spec.validate(sources, registry: registry, limits: limits, remoteIncludes: remote)
        guard errors.isEmpty else { throw .invalid(errors) }
        let url = directory.appending(path: path)
        do {
            if let data {
                try makeFolders(of: path)
                try AtomicFile.write(data, to: url)
            } else {
                try AtomicFile.remove(url)
            }
        } catch where error.errno == ENOSPC || error.errno == EDQUOT {
            throw .insufficientStorage(error.description)
        } catch {
            throw .fileSystem(error.description)
        }
        return .written(WriteResult(path: path, etag: data.map { EntityTag(of: $0) }, created: current == nil))
    }

    private static func validated(_ rawPath: String) throws(PushError) -> String {
        do {
            return try SpecPath.validate(rawPath)
        } catch {
            throw .forbiddenPath(error)
        }
    }

    private func readFolder() throws(PushError) -> SpecSourceSet {
        do {
            return try SpecSourceSet(directory: directory, limits: limits)
        } catch where error.code == .io {
            throw .fileSystem(error.description)
        } catch {
            // A file on disk over the size limit: the folder as a whole does not validate.
            throw .invalid([error])
        }
    }

    /// Refuses a path whose folders are not plain folders: a link to a folder elsewhere would
    /// let a push write outside the specs folder.
    private func checkFolders(of path: String) throws(PushError) {
        var folder = directory.path
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            var info = stat()
            guard lstat(folder, &info) == 0 else { return }  // missing: created on write
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .forbiddenPath(
                    SpecError(.forbiddenPath, at: .start(of: path),
                        "'\(path)' passes through '\(component)', which is not a plain folder (a file or a symbolic link)"))
            }
        }
    }

    /// Refuses a path that is a symbolic link: the folder's owner may link a file in for
    /// reading, but a push must never write (or delete) through a link to somewhere else.
    private func checkNotALink(_ path: String) throws(PushError) {
        var info = stat()
        guard lstat(directory.appending(path: path).path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        throw .forbiddenPath(
            SpecError(.forbiddenPath, at: .start(of: path),
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
