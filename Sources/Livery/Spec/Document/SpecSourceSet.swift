public import Foundation

/// The spec files of a folder, as bytes, by their path relative to the folder.
///
/// Reading and building are separate so that the daemon can validate a folder as it *would*
/// be after a push (one file replaced or removed) before it writes anything.
public struct SpecSourceSet: Sendable {
    /// A file's bytes and where it came from.
    public struct File: Sendable {
        /// Path relative to the folder, `/`-separated.
        public var path: String
        /// The file's content.
        public var data: Data
        /// JSON or YAML, from the extension.
        public var format: SpecFormat
    }

    /// The files, by relative path.
    public var files: [String: File]
    /// Paths of folders that are symbolic links: skipped, so includes cannot reach through them.
    public var linkedFolders: Set<String>

    /// An empty set.
    public init() {
        files = [:]
        linkedFolders = []
    }

    /// Adds or replaces a file, or removes it when `data` is nil.
    ///
    /// - Throws: ``SpecError`` with code ``SpecError/Code/forbiddenPath`` if the path is not an
    ///   allowed spec path (see ``SpecPath``).
    public mutating func set(_ path: String, to data: Data?) throws(SpecError) {
        let path = try SpecPath.validate(path)
        guard let data else {
            files[path] = nil
            return
        }
        guard let format = SpecPath.format(of: path) else {
            throw SpecError(
                .forbiddenPath, at: .start(of: path), "'\(path)' is not a .json, .yaml, .yml or .tokens file")
        }
        files[path] = File(path: path, data: data, format: format)
    }

    /// The paths, sorted: the order files merge in.
    public var sortedPaths: [String] { files.keys.sorted() }
}
