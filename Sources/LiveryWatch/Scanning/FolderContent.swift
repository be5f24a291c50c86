import Foundation
import Livery

/// What one scan read: the bytes of the content files, and their fingerprint.
///
/// The loader is given these very bytes, so what is published is exactly what was fingerprinted
/// (a file cannot change between the two), and the folder is listed and read once per reload.
struct FolderContent: Sendable {
    /// A content file and what the scan read of it.
    struct File: Sendable {
        /// The path below the watched folder, such as `themes/dark.yaml`.
        var relativePath: String
        /// Its bytes, or nil for a file too large to read (see ``FolderSnapshot/largestHashedFile``).
        var bytes: [UInt8]?
        /// Its size in bytes.
        var size: Int
    }

    /// The files, sorted by relative path; files deleted during the scan are left out.
    var files: [File]
    /// Links to folders, by relative path: walked to be watched, but a specs folder does not
    /// load through them (see ``Livery/SpecSourceSet/init(directory:limits:)``).
    var linkedFolders: [String]
    /// The fingerprint of the files' relative paths and bytes.
    var hash: ContentHash
}

extension FolderContent {
    /// The spec files, as ``Livery/SpecSourceSet/init(directory:limits:)`` would read them from
    /// the folder: nothing below a link to a folder, nothing over `limits.maxBytes`.
    func specSources(limits: ReaderLimits) throws(SpecError) -> SpecSourceSet {
        var sources = SpecSourceSet()
        // The reader does not enter a linked folder, so it never sees the links inside one.
        sources.linkedFolders = Set(linkedFolders.filter { !isBelowLinkedFolder($0) })
        for file in files where !isBelowLinkedFolder(file.relativePath) {
            try sources.addListed(file.relativePath, size: file.size, limits: limits) { () throws(SpecError) in
                // Only a file over 16 MiB is not read, and no limit lets one through.
                guard let bytes = file.bytes else {
                    throw SpecError(
                        .limitExceeded, at: .start(of: file.relativePath),
                        "file is \(file.size) bytes; too large to read")
                }
                return Data(bytes)
            }
        }
        return sources
    }

    private func isBelowLinkedFolder(_ path: String) -> Bool {
        linkedFolders.contains { path.hasPrefix($0 + "/") }
    }
}
