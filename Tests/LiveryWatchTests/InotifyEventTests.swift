import CInotifyTools
import Testing

@testable import LiveryWatch

@Suite struct InotifyEventTests {
    /// Lays out one `struct inotify_event` the way the kernel does (name NUL-padded to 16).
    static func raw(_ descriptor: Int32, _ mask: Int32, cookie: UInt32 = 0, name: String? = nil) -> [UInt8] {
        var name = Array((name ?? "").utf8)
        if !name.isEmpty { name += Array(repeating: 0, count: 16 - name.count % 16) }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: descriptor) { bytes += $0 }
        withUnsafeBytes(of: UInt32(bitPattern: mask)) { bytes += $0 }
        withUnsafeBytes(of: cookie) { bytes += $0 }
        withUnsafeBytes(of: UInt32(name.count)) { bytes += $0 }
        return bytes + name
    }

    static func decode(_ bytes: [UInt8]) -> [InotifyRecord] {
        bytes.withUnsafeBytes { InotifyRecord.decode($0) }
    }

    @Test(arguments: [
        (raw(1, IN_CREATE, name: "card.yaml"), InotifyEvent.created("card.yaml", isDirectory: false)),
        (raw(1, IN_CREATE | IN_ISDIR, name: "sub"), .created("sub", isDirectory: true)),
        (raw(1, IN_MODIFY, name: "card.yaml"), .modified("card.yaml")),
        (raw(1, IN_CLOSE_WRITE, name: "card.yaml"), .closedAfterWriting("card.yaml")),
        (raw(1, IN_ATTRIB, name: "card.yaml"), .attributesChanged("card.yaml")),
        (raw(1, IN_ATTRIB | IN_ISDIR), .attributesChanged(nil)),
        (raw(1, IN_MOVED_FROM, cookie: 7, name: "a"), .movedOut("a", cookie: 7, isDirectory: false)),
        (raw(1, IN_MOVED_TO | IN_ISDIR, cookie: 7, name: "b"), .movedIn("b", cookie: 7, isDirectory: true)),
        (raw(1, IN_DELETE, name: "card.yaml~"), .deleted("card.yaml~", isDirectory: false)),
        (raw(1, IN_DELETE_SELF), .folderDeleted),
        (raw(1, IN_MOVE_SELF), .folderMoved),
        (raw(1, IN_UNMOUNT), .unmounted),
        (raw(1, IN_IGNORED), .watchRemoved),
        (raw(-1, IN_Q_OVERFLOW), .queueOverflowed),
        (raw(1, IN_OPEN, name: "x"), .other(mask: UInt32(IN_OPEN), name: "x")),
    ])
    func decodesEachKind(bytes: [UInt8], expected: InotifyEvent) {
        #expect(Self.decode(bytes).map(\.event) == [expected])
    }

    @Test func decodesABufferOfSeveralEvents() {
        let bytes =
            Self.raw(3, IN_MOVED_FROM, cookie: 9, name: "..data_tmp")
            + Self.raw(3, IN_MOVED_TO, cookie: 9, name: "..data")
            + Self.raw(4, IN_IGNORED)
        #expect(
            Self.decode(bytes) == [
                InotifyRecord(descriptor: 3, event: .movedOut("..data_tmp", cookie: 9, isDirectory: false)),
                InotifyRecord(descriptor: 3, event: .movedIn("..data", cookie: 9, isDirectory: false)),
                InotifyRecord(descriptor: 4, event: .watchRemoved),
            ]
        )
    }

    @Test func stopsAtATruncatedEventInsteadOfReadingPastTheBuffer() {
        let whole = Self.raw(1, IN_CREATE, name: "a.yaml")
        let truncated = Array(Self.raw(1, IN_DELETE, name: "b.yaml").dropLast(4))
        #expect(
            Self.decode(whole + truncated) == [
                InotifyRecord(descriptor: 1, event: .created("a.yaml", isDirectory: false))
            ])
        #expect(Self.decode(Array(whole.prefix(10))).isEmpty)
    }

    @Test func theWatchMaskLeavesOutTheWatchersOwnReads() {
        let mask = InotifyEvent.watchMask
        #expect(mask & UInt32(IN_ACCESS | IN_OPEN | IN_CLOSE_NOWRITE) == 0)
        #expect(mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF | IN_ONLYDIR) != 0)
    }
}
