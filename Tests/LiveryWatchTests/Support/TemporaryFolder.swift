import Foundation
import Glibc

/// A fresh folder under /tmp, removed when the test is done with it; plus the file operations the
/// tests perform the way real tools do them (plain syscalls, no Foundation atomic-write magic).
final class TemporaryFolder: Sendable {
    let path: String
    var url: URL { URL(filePath: path, directoryHint: .isDirectory) }

    init() throws {
        var template = Array("/tmp/livery-watch-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit {
        // Cleanup only: a leftover folder in /tmp must not fail the test that already passed.
        _ = try? FileManager.default.removeItem(atPath: path)
    }

    func at(_ relative: String) -> String { relative.isEmpty ? path : path + "/" + relative }

    /// Truncates and writes in place, like `echo x > file`.
    func write(_ relative: String, _ content: String) throws {
        let descriptor = open(at(relative), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("open \(relative): errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array(content.utf8)
        guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw TestFailure("write \(relative)") }
    }

    /// Writes a temporary file next to the target and renames it over (an "atomic save").
    func saveAtomically(_ relative: String, _ content: String) throws {
        let temporary = relative + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        try write(temporary, content)
        try rename(temporary, to: relative)
    }

    /// vim's default save: rename the original to `file~`, write a new file, delete the backup.
    func saveLikeVim(_ relative: String, _ content: String) throws {
        try rename(relative, to: relative + "~")
        try write(relative, content)
        try remove(relative + "~")
    }

    func rename(_ from: String, to: String) throws {
        guard Glibc.rename(at(from), at(to)) == 0 else { throw TestFailure("rename \(from) → \(to): errno \(errno)") }
    }

    func makeFolder(_ relative: String) throws {
        guard mkdir(at(relative), 0o755) == 0 else { throw TestFailure("mkdir \(relative): errno \(errno)") }
    }

    func link(_ relative: String, to target: String) throws {
        guard symlink(target, at(relative)) == 0 else { throw TestFailure("symlink \(relative): errno \(errno)") }
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: at(relative))
    }
}

/// A test precondition that did not hold.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
