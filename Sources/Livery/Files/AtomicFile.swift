package import CDispatch
package import Foundation

/// Writes and removes files (the daemon's folder store and token, the client's offline cache) so that a crash or a power cut leaves either the old content or
/// the new, never a mix: a write goes to a temporary file in the same folder, is flushed to
/// disk, and is renamed over the target; then the folder itself is flushed so the rename lasts.
package enum AtomicFile {
    /// Replaces (or creates) `url` with `data`.
    ///
    /// - Parameter mode: The new file's permissions; `nil` keeps those of the file it replaces,
    ///   and gives a new file 0666 less the process's umask, as any program creating a file does.
    package static func write(_ data: Data, to url: URL, mode: mode_t? = nil) throws(FileSystemError) {
        try place(data, at: url, mode: mode, replacing: true)
    }

    /// Creates `url` with `data` unless a file of that name exists (then it fails with
    /// `EEXIST` and leaves that file alone): of several processes creating the same file at
    /// once, exactly one succeeds, and the others can read what it wrote.
    package static func create(_ data: Data, at url: URL, mode: mode_t) throws(FileSystemError) {
        try place(data, at: url, mode: mode, replacing: false)
    }

    /// Writes `data` to a temporary file beside `url` without flushing it or putting it in
    /// place: a caller that must know the disk takes the bytes before it changes anything else
    /// stages them first, and ``StagedFile/put()`` or ``StagedFile/discard()`` them later.
    package static func stage(_ data: Data, for url: URL, mode: mode_t? = nil) throws(FileSystemError) -> StagedFile {
        let folder = url.deletingLastPathComponent().path
        let target = url.path
        // Hidden, so watchers and folder reads skip it while it exists.
        let temporary = folder + "/.\(url.lastPathComponent).livery-\(UInt32.random(in: .min ... .max)).tmp"
        var existing = stat()
        let permissions = mode ?? (stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil)
        // open() applies the umask: right for a new file, too narrow for an exact mode.
        let fd = try retrying("create", temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions ?? 0o666)
        }
        let staged = StagedFile(descriptor: fd, temporary: temporary, target: target, folder: folder)
        do {
            if let permissions { _ = try retrying("chmod", temporary) { fchmod(fd, permissions) } }
            try writeAll(data, to: fd, path: temporary)
        } catch {
            staged.discard()
            throw error
        }
        return staged
    }

    /// A file's new content in its temporary file (``AtomicFile/stage(_:for:mode:)``), not yet
    /// flushed nor under its name.
    package struct StagedFile: Sendable {
        let descriptor: Int32
        let temporary: String
        let target: String
        /// The folder whose entries change when the file is put in place.
        package let folder: String

        /// Flushes the content and renames it over the target. The folder is not flushed, so
        /// that a caller placing several files flushes it once (``AtomicFile/syncFolder(_:)``).
        package func put() throws(FileSystemError) {
            try put(replacing: true)
        }

        /// Removes the temporary file.
        package func discard() {
            close(descriptor)
            unlink(temporary)
        }

        fileprivate func put(replacing: Bool) throws(FileSystemError) {
            do {
                _ = try AtomicFile.retrying("fsync", temporary) { fsync(descriptor) }
            } catch {
                discard()
                throw error
            }
            // Not retried: after close() the descriptor is gone whatever it returns.
            if close(descriptor) != 0 {
                let error = FileSystemError(operation: "close", path: temporary, errno: errno)
                unlink(temporary)
                throw error
            }
            do {
                // link() never replaces an existing name, where rename() does.
                _ = try AtomicFile.retrying(replacing ? "rename" : "create", target) {
                    replacing ? rename(temporary, target) : link(temporary, target)
                }
            } catch {
                unlink(temporary)
                throw error
            }
            if !replacing { unlink(temporary) }
        }
    }

    private static func place(_ data: Data, at url: URL, mode: mode_t?, replacing: Bool) throws(FileSystemError) {
        let staged = try stage(data, for: url, mode: mode)
        try staged.put(replacing: replacing)
        try syncFolder(staged.folder)
    }

    /// The temporary files ``write(_:to:mode:)`` left below `folder` when the process died
    /// between creating and renaming one (hidden names ending in `.livery-<number>.tmp`).
    /// Symbolic links to folders are not entered.
    package static func leftovers(in folder: String) -> [String] {
        guard let names = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let name = names.nextObject() as? String {
            let file = (name as NSString).lastPathComponent
            if file.hasPrefix("."), file.wholeMatch(of: /\..+\.livery-[0-9]+\.tmp/) != nil {
                found.append(folder + "/" + name)
            }
        }
        return found
    }

    /// Removes `url` and flushes its folder.
    package static func remove(_ url: URL) throws(FileSystemError) {
        _ = try retrying("remove", url.path) { unlink(url.path) }
        try syncFolder(url.deletingLastPathComponent().path)
    }

    /// Creates `folder` (mode 0777 less the umask) and flushes its parent, so the new entry
    /// survives a crash.
    package static func makeFolder(_ folder: String) throws(FileSystemError) {
        _ = try retrying("create folder", folder) { mkdir(folder, 0o777) }
        try syncFolder((folder as NSString).deletingLastPathComponent)
    }

    /// Flushes a folder's entries (renames, new and removed names) to disk.
    package static func syncFolder(_ folder: String) throws(FileSystemError) {
        let fd = try retrying("open folder", folder) { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        _ = try retrying("fsync folder", folder) { fsync(fd) }
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(FileSystemError) {
        let result: Result<Void, FileSystemError> = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .failure(FileSystemError(operation: "write", path: path, errno: errno))
                }
                offset += written
            }
            return .success(())
        }
        try result.get()
    }

    /// Runs a system call until it does not fail with `EINTR`; a negative result is an error.
    fileprivate static func retrying<T: BinaryInteger>(
        _ operation: String, _ path: String, _ call: () -> T
    ) throws(FileSystemError) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno != EINTR { throw FileSystemError(operation: operation, path: path, errno: errno) }
        }
    }
}
