import CDispatch
import Glibc
import Livery

/// One scan of a watched folder: which folders to watch, and which files make up its content.
struct FolderSnapshot: Sendable {
    /// Whether the folder itself could be scanned.
    enum State: Sendable {
        /// The folder exists and was walked.
        case present
        /// The folder is missing, not a folder, or unreadable; ``FolderSnapshot/folders`` then
        /// holds the nearest existing ancestor, so its re-creation is noticed.
        case unavailable(WatchError)
    }

    /// A file whose bytes count as content.
    struct ContentFile: Hashable, Sendable {
        /// The path below the watched folder, such as `themes/dark.yaml`; links keep their own name.
        var relativePath: String
        /// The path to read it through (links are followed when reading).
        var path: String
    }

    /// Whether the folder could be scanned.
    var state: State
    /// The real path of the watched folder, when it is present.
    var root: String?
    /// The real paths of the folders to watch, with the identity each had when scanned.
    var folders: [String: FileID] = [:]
    /// The content files, sorted by relative path.
    var files: [ContentFile] = []
    /// Links to folders below the watched one, by relative path (their files are in ``files``).
    var linkedFolders: [String] = []
    /// Whether the folder is a link, or has links of any kind anywhere below it.
    var hasLinks = false
    /// Entries that exist but could not be read; any of them makes the scan a failure.
    var problems: [WatchError] = []
}

extension FolderSnapshot {
    /// Reads the content files and fingerprints their relative paths and bytes, and the relative
    /// paths of the links to folders.
    ///
    /// A file deleted since the listing is skipped: its deletion event is already queued and will
    /// cause another scan.
    ///
    /// A file over ``largestHashedFile`` is fingerprinted by its size, inode and modification
    /// time instead of its bytes, and not read: no spec is that large (the loader refuses it),
    /// and reading a multi-gigabyte file dropped into the folder by mistake would cost its size
    /// in memory at every scan.
    func readContent() -> Result<FolderContent, WatchError> {
        var hasher = FNV1a64()
        var read: [FolderContent.File] = []
        read.reserveCapacity(files.count)
        for file in files {
            switch FileSystem.contents(of: file.path, largest: Self.largestHashedFile) {
            case .success(.bytes(let bytes)):
                hasher.combine(file.relativePath.utf8)
                hasher.combine(CollectionOfOne(0))
                hasher.combine(UInt64(bytes.count))
                hasher.combine(bytes)
                read.append(.init(relativePath: file.relativePath, bytes: bytes, size: bytes.count))
            case .success(.tooLarge(let info)):
                hasher.combine(file.relativePath.utf8)
                hasher.combine(CollectionOfOne(1))
                for number in [info.st_size, Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec] {
                    hasher.combine(UInt64(truncatingIfNeeded: number))
                }
                read.append(.init(relativePath: file.relativePath, bytes: nil, size: Int(info.st_size)))
            case .failure(let error) where error.isVanished:
                continue
            case .failure(let error):
                return .failure(WatchError(.io, path: file.path, "cannot read file", error))
            }
        }
        // Where links to folders are counts too: a spec's includes cannot reach through them.
        for folder in linkedFolders {
            hasher.combine(folder.utf8)
            hasher.combine(CollectionOfOne(2))
        }
        return .success(FolderContent(files: read, linkedFolders: linkedFolders, hash: hasher.hash))
    }
}

extension FolderSnapshot {
    /// Files larger than this (16 MiB, four times the reader's default limit) are fingerprinted
    /// without being read.
    static let largestHashedFile = 16 * 1024 * 1024
}

extension ContentHash {
    /// The fingerprint of a folder that cannot be scanned, so the same problem is reported once.
    static func unavailable(_ error: WatchError) -> ContentHash {
        var hasher = FNV1a64()
        hasher.combine("\u{0}unavailable\u{0}\(error.code)\u{0}\(error.path)".utf8)
        return hasher.hash
    }
}

extension Errno {
    /// The entry disappeared while it was being looked at: a race with a writer, not a failure.
    var isVanished: Bool { rawValue == ENOENT || rawValue == ENOTDIR }
}
