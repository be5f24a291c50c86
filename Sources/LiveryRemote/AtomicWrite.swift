import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file so that a crash or a power cut leaves the old content or the new, never a
/// mix: the data goes to a temporary file in the same folder, is flushed to disk and renamed
/// over the target, then the folder is flushed so that the rename lasts.
enum AtomicWrite {
    static func replace(_ file: URL, with data: Data) throws(BundleCacheError) {
        let folder = file.deletingLastPathComponent().path
        let target = file.path
        let temporary = folder + "/.\(file.lastPathComponent).\(UInt32.random(in: .min ... .max)).tmp"
        let fd = try call("create", temporary) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        do {
            try writeAll(data, to: fd, path: temporary)
            _ = try call("fsync", temporary) { fsync(fd) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        // Not retried: after close() the descriptor is gone whatever it returns.
        guard close(fd) == 0 else {
            let error = failure("close", temporary)
            unlink(temporary)
            throw error
        }
        do {
            _ = try call("rename", target) { rename(temporary, target) }
        } catch {
            unlink(temporary)
            throw error
        }
        let folderFD = try call("open the folder", folder) { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(folderFD) }
        _ = try call("fsync the folder", folder) { fsync(folderFD) }
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(BundleCacheError) {
        var offset = 0
        while offset < data.count {
            let chunk = data.dropFirst(offset)
            let written = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            offset += written
        }
    }

    /// Runs a system call until it does not fail with `EINTR`; a negative result is an error.
    private static func call<T: BinaryInteger>(
        _ operation: String, _ path: String, _ body: () -> T
    )
        throws(BundleCacheError) -> T
    {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw failure(operation, path) }
        }
    }

    private static func failure(_ operation: String, _ path: String) -> BundleCacheError {
        BundleCacheError(.unwritable, path: path, "cannot \(operation): \(String(cString: strerror(errno)))")
    }
}
