import CDispatch
public import Foundation

extension SpecSourceSet {
    /// Reads every spec file below `directory`.
    ///
    /// Hidden files and folders are skipped; a symbolic link to a file is followed (the folder's
    /// owner put it there); a symbolic link to a folder is not entered. Files larger than
    /// `limits.maxBytes` are refused before they are read.
    public init(directory: URL, limits: ReaderLimits = .default) throws(SpecError) {
        self.init()
        let root = directory.standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw SpecError(.io, at: .start(of: root), "specs folder '\(root)' does not exist or is not a folder")
        }
        try walk(root: root, relative: "", limits: limits)
    }

    /// Adds a file found in a specs folder by the rules of ``init(directory:limits:)``: a file
    /// that is not a spec format is skipped, one over `limits.maxBytes` is refused before
    /// `contents` reads it.
    ///
    /// For callers that list and read a folder themselves, such as a folder watcher that has
    /// already read every file to fingerprint it. Unlike ``set(_:to:)``, `path` is taken as
    /// listed (relative, `/`-separated, hidden entries already skipped), not validated.
    package mutating func addListed(
        _ path: String, size: Int, limits: ReaderLimits, contents: () throws(SpecError) -> Data
    ) throws(SpecError) {
        guard let format = SpecPath.format(of: path) else { return }
        guard size <= limits.maxBytes else {
            throw SpecError(
                .limitExceeded, at: .start(of: path), "file is \(size) bytes; the limit is \(limits.maxBytes) bytes")
        }
        files[path] = File(path: path, data: try contents(), format: format)
    }

    private mutating func walk(root: String, relative: String, limits: ReaderLimits) throws(SpecError) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw SpecError(
                .io, at: .start(of: relative.isEmpty ? "." : relative),
                FileSystemError(operation: "list folder", path: folder, error: error).description)
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = relative.isEmpty ? name : relative + "/" + name
            let full = root + "/" + path
            switch FileKind(path: full) {
            case .folder: try walk(root: root, relative: path, limits: limits)
            case .linkToFolder: linkedFolders.insert(path)
            case .file(let size):
                try addListed(path, size: size, limits: limits) { () throws(SpecError) in
                    do throws(FileSystemError) {
                        return try LocalFile.contents(of: full)
                    } catch {
                        throw SpecError(.io, at: .start(of: path), error.description)
                    }
                }
            case .other:
                continue
            }
        }
    }
}

/// What a directory entry is, following a symbolic link one step to say what it points at.
private enum FileKind {
    case file(size: Int)
    case folder
    case linkToFolder
    case other

    init(path: String) {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            self = .other
            return
        }
        var target = stat()
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        guard !isLink || stat(path, &target) == 0 else {
            // A dangling link: nothing to read, like a file that was just deleted.
            self = .other
            return
        }
        let mode = (isLink ? target : link).st_mode & S_IFMT
        switch mode {
        case S_IFDIR: self = isLink ? .linkToFolder : .folder
        case S_IFREG: self = .file(size: Int((isLink ? target : link).st_size))
        default: self = .other
        }
    }
}
