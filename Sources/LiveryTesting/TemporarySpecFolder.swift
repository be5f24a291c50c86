public import Foundation

/// A fresh folder under the system's temporary directory, for tests that write spec files.
/// Writes are real file operations, so watchers see them through inotify like any editor's.
public final class TemporarySpecFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates an empty folder with a unique name.
    public init(prefix: String = "livery") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)  // Best effort: a leftover temp folder harms nothing.
    }

    /// The URL of a path inside the folder.
    public func url(_ path: String) -> URL {
        url.appendingPathComponent(path)
    }

    /// Writes a file in place (truncate and write), creating folders as needed.
    public func write(_ path: String, _ contents: String) throws {
        let file = url(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
    }

    /// Saves like an editor's atomic save: a temporary file in the same folder, renamed over.
    public func atomicSave(_ path: String, _ contents: String) throws {
        let file = url(path)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(
            ".\(file.lastPathComponent).tmp-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
    }

    /// Removes a file or folder.
    public func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: url(path))
    }
}
