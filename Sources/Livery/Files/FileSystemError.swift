import Foundation

/// A failed file operation, naming the operation, the path and the reason in Livery's own
/// words (`cannot read '/etc/livery/token': permission denied`).
///
/// Every error about a file that reaches a user goes through here, whether it came from a system
/// call (`errno`) or from Foundation (a `CocoaError`, whose own words — "The file doesn't exist."
/// — name neither the file nor the call), so the same failure reads the same everywhere.
package struct FileSystemError: Error, Equatable, CustomStringConvertible {
    package var operation: String
    package var path: String
    package var errno: Int32

    package init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The failure of a Foundation call (`Data(contentsOf:)`, `FileManager`) on `path`.
    package init(operation: String, path: String, error: any Error) {
        self.init(operation: operation, path: path, errno: Self.errno(of: error))
    }

    package var description: String { "cannot \(operation) '\(path)': \(reason)" }

    /// Why, in a few words: `no such file or folder`, `permission denied`, ….
    package var reason: String { Self.reason(errno: errno) }

    /// The words for an `errno`: ours for the failures users meet, the C library's otherwise.
    package static func reason(errno: Int32) -> String {
        switch errno {
        case ENOENT: "no such file or folder"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder, not a file"
        case ENOTDIR: "a part of the path is not a folder"
        case ELOOP: "too many levels of symbolic links"
        case ENAMETOOLONG: "the name is too long"
        case EEXIST: "it already exists"
        case ENOSPC: "no space left on the device"
        case EDQUOT: "the disk quota is exceeded"
        case EROFS: "the file system is read-only"
        case EMFILE, ENFILE: "too many open files"
        case EIO: "input/output error"
        case EFBIG: "the file is too large"
        case ENOTEMPTY: "the folder is not empty"
        case EXDEV: "it is on another file system"
        case 0: "unknown error"
        default: String(cString: strerror(errno)).lowercased()
        }
    }

    /// The `errno` behind an error of Foundation's: a POSIX error itself, or the underlying POSIX
    /// error of a `CocoaError`, or the `errno` its code stands for.
    static func errno(of error: any Error) -> Int32 {
        if let error = error as? FileSystemError { return error.errno }
        if let error = error as? POSIXError { return error.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return Int32(underlying.code)
        }
        guard let cocoa = error as? CocoaError else { return 0 }
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        default: return 0
        }
    }
}
