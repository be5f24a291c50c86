import Glibc

/// What `/proc/self` tells about this process's inotify descriptors.
///
/// libinotifytools keeps its descriptor in a `static` variable with no accessor, so the owner
/// thread finds it here (see ``InotifyLibrary``); after a queue overflow it also asks the kernel
/// which watches are still alive, because the `IN_IGNORED` events that would have said so may be
/// among the lost ones.
enum ProcFileDescriptors {
    /// The open descriptors that are inotify instances.
    static func inotifyDescriptors() -> Result<Set<Int32>, WatchError> {
        let folder = "/proc/self/fd"
        switch FileSystem.entries(of: folder) {
        case .failure(let error):
            return .failure(WatchError(.inotify, path: folder, "cannot list open descriptors", error))
        case .success(let names):
            var found: Set<Int32> = []
            for name in names {
                guard let descriptor = Int32(name),
                    case .success(let target) = FileSystem.linkTarget(FileSystem.join(folder, name)),
                    target == "anon_inode:inotify"
                else { continue }  // not a number, closed meanwhile, or another kind of file
                found.insert(descriptor)
            }
            return .success(found)
        }
    }

    /// The live watches of an inotify descriptor: watch descriptor → inode number.
    ///
    /// Each watch is a line `inotify wd:1 ino:3df9d sdev:fe00000 mask:... ` (numbers in hex).
    static func watches(of descriptor: Int32) -> Result<[Int32: UInt64], WatchError> {
        let path = "/proc/self/fdinfo/\(descriptor)"
        switch FileSystem.contents(of: path) {
        case .failure(let error):
            return .failure(WatchError(.inotify, path: path, "cannot read descriptor info", error))
        case .success(let bytes):
            var watches: [Int32: UInt64] = [:]
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("inotify ") {
                var fields: [Substring: Substring] = [:]
                for field in line.split(separator: " ") {
                    guard let colon = field.firstIndex(of: ":") else { continue }
                    fields[field[..<colon]] = field[field.index(after: colon)...]
                }
                if let wd = fields["wd"].flatMap({ Int32($0, radix: 16) }),
                    let inode = fields["ino"].flatMap({ UInt64($0, radix: 16) })
                {
                    watches[wd] = inode
                }
            }
            return .success(watches)
        }
    }
}
