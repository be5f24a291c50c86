import CDispatch
import Glibc

/// Identifies a file across renames: its device and inode numbers.
struct FileID: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
}

/// The little of `stat` the scanner needs.
struct FileStatus: Hashable, Sendable {
    /// The file's type.
    enum Kind: Hashable, Sendable { case directory, regular, symbolicLink, other }

    var kind: Kind
    var id: FileID
}

/// Thin, checked wrappers over the POSIX calls the scanner makes (rule 7: every result checked,
/// `EINTR` retried, the `errno` handed back for the caller to name the path).
enum FileSystem {
    /// `stat` (following symbolic links) or `lstat`.
    static func status(of path: String, followingLinks: Bool) -> Result<FileStatus, Errno> {
        var info = stat()
        let result = retryingInterrupts { followingLinks ? stat(path, &info) : lstat(path, &info) }
        return result.map { _ in
            let kind: FileStatus.Kind
            switch info.st_mode & S_IFMT {
            case S_IFDIR: kind = .directory
            case S_IFREG: kind = .regular
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
            return FileStatus(kind: kind, id: FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        }
    }

    /// The names in a folder, without `.` and `..`, sorted so scans are deterministic.
    static func entries(of path: String) -> Result<[String], Errno> {
        guard let directory = opendir(path) else { return .failure(.current) }
        // closedir only fails with EBADF, which a stream we just opened cannot be.
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(.current) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names.sorted())
    }

    /// What ``contents(of:largest:)`` found.
    enum Contents {
        /// The whole file.
        case bytes([UInt8])
        /// The file is larger than asked for, and was not read; its status.
        case tooLarge(stat)
    }

    /// The whole content of a file, following symbolic links.
    static func contents(of path: String) -> Result<[UInt8], Errno> {
        contents(of: path, largest: .max).map { contents in
            guard case .bytes(let bytes) = contents else { return [] }  // nothing is larger than .max
            return bytes
        }
    }

    /// The whole content of a file, following symbolic links, unless it is over `largest` bytes.
    static func contents(of path: String, largest: Int) -> Result<Contents, Errno> {
        let opened = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard case .success(let descriptor) = opened else { return opened.map { _ in .bytes([]) } }
        // Linux releases the descriptor even when close fails (even with EINTR), so there is
        // nothing to retry and nothing useful to report for a read-only file.
        defer { close(descriptor) }
        var info = stat()
        if case .failure(let error) = retryingInterrupts({ fstat(descriptor, &info) }) { return .failure(error) }
        guard Int(info.st_size) <= largest else { return .success(.tooLarge(info)) }
        // Sized by the status, one byte over to see the end in the same call; a file that grows
        // meanwhile (or reports no size, as /proc does) is read on in chunks.
        var failure: Errno?
        var bytes = [UInt8](unsafeUninitializedCapacity: max(Int(info.st_size), 0) + 1) { buffer, count in
            while count < buffer.count {
                switch retryingInterrupts({ read(descriptor, buffer.baseAddress! + count, buffer.count - count) }) {
                case .failure(let error):
                    failure = error
                    return
                case .success(0): return
                case .success(let read): count += read
                }
            }
        }
        if let failure { return .failure(failure) }
        guard bytes.count > info.st_size else { return .success(.bytes(bytes)) }  // the end was seen
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingInterrupts { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            switch count {
            case .failure(let error): return .failure(error)
            case .success(0): return .success(.bytes(bytes))
            case .success(let count): bytes.append(contentsOf: chunk[0..<count])
            }
        }
    }

    /// The canonical absolute path: symbolic links, `.` and `..` resolved.
    static func realPath(_ path: String) -> Result<String, Errno> {
        guard let resolved = realpath(path, nil) else { return .failure(.current) }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// A symbolic link's target, as stored in the link.
    static func linkTarget(_ path: String) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { raw in
            retryingInterrupts { readlink(path, raw.baseAddress!, raw.count - 1) }
        }
        return count.map { count in String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// The folder part of a path: `/a/b` → `/a`, `/a` → `/`, `b` → `.`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Joins a folder and a name.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
