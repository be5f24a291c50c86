import Foundation
import Livery
import Testing

/// File errors say what failed, on which file, and why, in Livery's words, whether they come
/// from a system call or from Foundation.
@Suite struct FileSystemErrorTests {
    @Test func foundationsErrorsBecomeOurWords() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "livery-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appending(path: "missing.yaml").path
        #expect(throws: FileSystemError(operation: "read", path: missing, errno: ENOENT)) {
            try LocalFile.contents(of: missing)
        }
        #expect(
            FileSystemError(operation: "read", path: missing, errno: ENOENT).description
                == "cannot read '\(missing)': no such file or folder")
        let file = folder.appending(path: "file.yaml").path
        try Data("x".utf8).write(to: URL(filePath: file))
        #expect(throws: FileSystemError(operation: "read", path: file + "/x", errno: ENOTDIR)) {
            try LocalFile.contents(of: file + "/x")
        }
        #expect(throws: FileSystemError(operation: "read", path: folder.path, errno: EISDIR)) {
            try LocalFile.checkReadable(folder.path)
        }
        #expect(try LocalFile.contents(of: file) == Data("x".utf8))
    }

    @Test(arguments: [
        (CocoaError(.fileReadNoSuchFile), "no such file or folder"),
        (CocoaError(.fileNoSuchFile), "no such file or folder"),
        (CocoaError(.fileReadNoPermission), "permission denied"),
        (CocoaError(.fileWriteNoPermission), "permission denied"),
        (CocoaError(.fileWriteOutOfSpace), "no space left on the device"),
        (CocoaError(.fileWriteVolumeReadOnly), "the file system is read-only"),
    ])
    func cocoaErrorsAreNamedByWhatHappened(error: CocoaError, reason: String) {
        #expect(FileSystemError(operation: "read", path: "/x", error: error).reason == reason)
    }

    @Test func anUnderlyingPOSIXErrorWins() {
        let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))
        let error = CocoaError(.fileReadUnknown, userInfo: [NSUnderlyingErrorKey: underlying])
        #expect(FileSystemError(operation: "read", path: "/x", error: error).reason == "permission denied")
        #expect(
            FileSystemError(operation: "read", path: "/x", error: POSIXError(.ENOSPC)).reason
                == "no space left on the device")
    }
}
