import CDispatch
package import Foundation

/// Reads a user's file (a token, a certificate, a file to push), failing with a
/// ``FileSystemError`` that names the file and the reason in Livery's words.
package enum LocalFile {
    /// The bytes of the file at `path`.
    package static func contents(of path: String) throws(FileSystemError) -> Data {
        // A folder opens without an error: said here, in these words, before Foundation reads.
        try checkReadable(path)
        do {
            return try Data(contentsOf: URL(filePath: path))
        } catch {
            throw FileSystemError(operation: "read", path: path, error: error)
        }
    }

    /// Throws unless `path` can be opened for reading: an option naming a file is checked when
    /// it is parsed, with the reason it cannot be used.
    package static func checkReadable(_ path: String) throws(FileSystemError) {
        // Non-blocking, so that a named pipe cannot hold the check up.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError(operation: "read", path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw FileSystemError(operation: "read", path: path, errno: EISDIR)
        }
    }
}
