import CInotifyTools

/// What inotify reported about a watched folder or one of its entries, decoded from one
/// `struct inotify_event`.
///
/// Names are relative to the watched folder; `nil` means the folder itself.
enum InotifyEvent: Hashable, Sendable {
    /// `IN_CREATE`: an entry appeared.
    case created(String, isDirectory: Bool)
    /// `IN_MODIFY`: a file's bytes changed (a write or a truncation).
    case modified(String)
    /// `IN_CLOSE_WRITE`: a file opened for writing was closed.
    case closedAfterWriting(String)
    /// `IN_ATTRIB`: permissions, owner, times or link count changed.
    case attributesChanged(String?)
    /// `IN_MOVED_FROM`: an entry was renamed away; `cookie` pairs it with its `movedIn`.
    case movedOut(String, cookie: UInt32, isDirectory: Bool)
    /// `IN_MOVED_TO`: an entry was renamed into the folder (or within it).
    case movedIn(String, cookie: UInt32, isDirectory: Bool)
    /// `IN_DELETE`: an entry was removed.
    case deleted(String, isDirectory: Bool)
    /// `IN_DELETE_SELF`: the watched folder itself was removed.
    case folderDeleted
    /// `IN_MOVE_SELF`: the watched folder itself was renamed; the watch follows it.
    case folderMoved
    /// `IN_UNMOUNT`: the file system holding the folder was unmounted.
    case unmounted
    /// `IN_IGNORED`: the kernel dropped the watch (removed, or its folder is gone).
    case watchRemoved
    /// `IN_Q_OVERFLOW`: the kernel queue overflowed and events were lost.
    case queueOverflowed
    /// Anything else the mask let through, kept rather than dropped.
    case other(mask: UInt32, name: String?)
}

/// One decoded event and the watch descriptor it arrived on (-1 for a queue overflow).
struct InotifyRecord: Hashable, Sendable {
    /// The watch descriptor, or -1 for `IN_Q_OVERFLOW`.
    var descriptor: Int32
    /// What happened.
    var event: InotifyEvent
}

extension InotifyRecord {
    /// The fixed part of `struct inotify_event`: wd, mask, cookie, len.
    static let headerSize = MemoryLayout<Int32>.size + 3 * MemoryLayout<UInt32>.size

    /// Decodes every whole event in `bytes`, as returned by one `read()` of an inotify descriptor.
    ///
    /// The kernel only returns whole events, but a truncated tail is ignored rather than read
    /// past, so corrupt input can never crash the owner thread.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> [InotifyRecord] {
        var records: [InotifyRecord] = []
        var offset = 0
        while bytes.count - offset >= headerSize {
            let descriptor = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            guard nameLength <= bytes.count - nameStart else { break }
            // The name is NUL-padded to an alignment boundary; it ends at the first NUL.
            let nameBytes = bytes[nameStart..<(nameStart + nameLength)].prefix { $0 != 0 }
            let name = nameBytes.isEmpty ? nil : String(decoding: nameBytes, as: UTF8.self)
            records.append(
                InotifyRecord(descriptor: descriptor, event: InotifyEvent(mask: mask, cookie: cookie, name: name))
            )
            offset = nameStart + nameLength
        }
        return records
    }
}

extension InotifyEvent {
    /// Decodes one event's mask. A kernel event carries one event bit (plus `IN_ISDIR`); the
    /// order below only matters for the bookkeeping bits, which win over the rest.
    init(mask: UInt32, cookie: UInt32, name: String?) {
        func has(_ bit: Int32) -> Bool { mask & UInt32(bit) != 0 }
        let isDirectory = has(IN_ISDIR)
        switch name {
        case _ where has(IN_Q_OVERFLOW): self = .queueOverflowed
        case _ where has(IN_IGNORED): self = .watchRemoved
        case _ where has(IN_UNMOUNT): self = .unmounted
        case _ where has(IN_DELETE_SELF): self = .folderDeleted
        case _ where has(IN_MOVE_SELF): self = .folderMoved
        case _ where has(IN_ATTRIB): self = .attributesChanged(name)
        case let name? where has(IN_CREATE): self = .created(name, isDirectory: isDirectory)
        case let name? where has(IN_MODIFY): self = .modified(name)
        case let name? where has(IN_CLOSE_WRITE): self = .closedAfterWriting(name)
        case let name? where has(IN_MOVED_FROM): self = .movedOut(name, cookie: cookie, isDirectory: isDirectory)
        case let name? where has(IN_MOVED_TO): self = .movedIn(name, cookie: cookie, isDirectory: isDirectory)
        case let name? where has(IN_DELETE): self = .deleted(name, isDirectory: isDirectory)
        default: self = .other(mask: mask, name: name)
        }
    }

    /// The events LiveryWatch asks for on every folder it watches.
    ///
    /// No `IN_ACCESS`/`IN_OPEN`/`IN_CLOSE_NOWRITE`: the watcher reads the files itself, and
    /// seeing its own reads would make every scan schedule another. `IN_ONLYDIR` makes the
    /// kernel refuse a path that was swapped for a file between the scan and the watch.
    static let watchMask: UInt32 = {
        let bits: [Int32] = [
            IN_CREATE, IN_MODIFY, IN_CLOSE_WRITE, IN_ATTRIB, IN_MOVED_FROM, IN_MOVED_TO,
            IN_DELETE, IN_DELETE_SELF, IN_MOVE_SELF, IN_ONLYDIR,
        ]
        return bits.reduce(0) { $0 | UInt32($1) }
    }()
}
