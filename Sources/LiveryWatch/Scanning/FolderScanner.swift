import Glibc

/// Walks a watched folder: every non-hidden subfolder (following links to folders, once each),
/// every non-hidden file with a content extension (following links to files).
///
/// Links are covered like this: a link to a folder is walked and its real folder watched; a link
/// to a content file is read through, and the real folder holding its target is watched too, so
/// an edit of the target is seen even though nothing in the tree changes (this is also what makes
/// Kubernetes' `card.yaml -> ..data/card.yaml` layout work, together with the `..data` rename in
/// the root). A dangling link's target folder is watched when it exists, so the target's
/// appearance is seen. Links of links are resolved by the kernel; only the final folder is
/// watched.
struct FolderScanner: Sendable {
    /// The watched folder, as the caller named it.
    var root: String
    /// Content extensions, lowercased.
    var fileExtensions: Set<String>
    /// Whether links to folders are walked (and what they lead to watched). A specs folder does
    /// not load through them, so its watchers only note where they are: a link to a large tree
    /// is then neither walked nor watched.
    var entersLinkedFolders = true

    /// Whether a file named `name` is content: not hidden, and with one of `fileExtensions`
    /// (lowercased), compared case-insensitively.
    static func isContent(_ name: String, fileExtensions: Set<String>) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return fileExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Scans the folder now.
    func scan() -> FolderSnapshot {
        switch FileSystem.status(of: root, followingLinks: true) {
        case .success(let status) where status.kind == .directory:
            return scanPresent(rootID: status.id)
        case .success:
            return unavailable(WatchError(.notAFolder, path: root, "the watched path is not a folder"))
        case .failure(let error) where error.isVanished:
            return unavailable(
                WatchError(.folderMissing, path: root, "the watched folder is missing; waiting for it to come back")
            )
        case .failure(let error):
            return unavailable(WatchError(.io, path: root, "cannot inspect the watched folder", error))
        }
    }

    private func scanPresent(rootID: FileID) -> FolderSnapshot {
        let real: String
        switch FileSystem.realPath(root) {
        case .success(let path): real = path
        case .failure(let error) where error.isVanished:
            return scan()  // deleted between stat and realpath: report it as missing
        case .failure(let error):
            return unavailable(WatchError(.io, path: root, "cannot resolve the watched folder", error))
        }
        var walk = Walk(fileExtensions: fileExtensions, entersLinkedFolders: entersLinkedFolders)
        if case .success(let status) = FileSystem.status(of: root, followingLinks: false),
            status.kind == .symbolicLink
        {
            // The root is a link: watch where the link lives, so re-pointing it is seen.
            walk.watchNearestFolder(from: FileSystem.parent(of: root))
            walk.hasLinks = true
        }
        walk.folder(path: root, relative: "", real: real, id: rootID)
        walk.followLinks()
        walk.files.sort { $0.relativePath < $1.relativePath }
        return FolderSnapshot(
            state: .present, root: real, folders: walk.folders, files: walk.files, linkedFolders: walk.linkedFolders,
            hasLinks: walk.hasLinks, problems: walk.problems)
    }

    private func unavailable(_ error: WatchError) -> FolderSnapshot {
        var walk = Walk(fileExtensions: fileExtensions, entersLinkedFolders: entersLinkedFolders)
        walk.watchNearestFolder(from: FileSystem.parent(of: root))
        return FolderSnapshot(state: .unavailable(error), folders: walk.folders)
    }
}

/// The mutable state of one walk.
private struct Walk {
    let fileExtensions: Set<String>
    let entersLinkedFolders: Bool
    var folders: [String: FileID] = [:]
    var files: [FolderSnapshot.ContentFile] = []
    var linkedFolders: [String] = []
    var hasLinks = false
    var problems: [WatchError] = []
    private var visited: Set<FileID> = []
    /// Links met in the folders walked so far, followed once the real folders are all walked.
    private var links: [(path: String, relative: String, name: String)] = []

    init(fileExtensions: Set<String>, entersLinkedFolders: Bool) {
        self.fileExtensions = fileExtensions
        self.entersLinkedFolders = entersLinkedFolders
    }

    mutating func folder(path: String, relative: String, real: String, id: FileID) {
        // A folder reached twice (a link cycle, or one folder linked twice) is walked once.
        guard visited.insert(id).inserted else { return }
        folders[real] = id
        let names: [String]
        switch FileSystem.entries(of: path) {
        case .success(let list): names = list
        case .failure(let error) where error.isVanished: return  // its deletion event is queued
        case .failure(let error):
            problems.append(WatchError(.io, path: path, "cannot list folder", error))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let child = FileSystem.join(path, name)
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            switch FileSystem.status(of: child, followingLinks: false) {
            case .failure(let error) where error.isVanished: continue
            case .failure(let error):
                problems.append(WatchError(.io, path: child, "cannot inspect", error))
            case .success(let status):
                switch status.kind {
                case .directory:
                    folder(path: child, relative: childRelative, real: FileSystem.join(real, name), id: status.id)
                case .regular where isContent(name):
                    files.append(.init(relativePath: childRelative, path: child))
                case .symbolicLink:
                    hasLinks = true
                    links.append((child, childRelative, name))
                case .regular, .other:
                    continue
                }
            }
        }
    }

    /// Follows the links met so far, and those in the folders they lead to.
    ///
    /// Links come after every real folder, so a folder that is both in the tree and linked to is
    /// walked (and its files named) where it really is, whichever name sorts first: a specs
    /// folder loads its real folders, not the links to them.
    mutating func followLinks() {
        while !links.isEmpty {
            let pending = links
            links = []
            for (path, relative, name) in pending {
                link(path: path, relative: relative, name: name)
            }
        }
    }

    private mutating func link(path: String, relative: String, name: String) {
        switch FileSystem.status(of: path, followingLinks: true) {
        case .success(let target) where target.kind == .directory:
            linkedFolders.append(relative)
            guard entersLinkedFolders,
                case .success(let real) = FileSystem.realPath(path)  // fails if re-pointed meanwhile
            else { return }
            folder(path: path, relative: relative, real: real, id: target.id)
        case .success(let target) where target.kind == .regular && isContent(name):
            files.append(.init(relativePath: relative, path: path))
            if case .success(let real) = FileSystem.realPath(path) {
                watchNearestFolder(from: FileSystem.parent(of: real))
            }
        case .success:
            return
        case .failure(let error) where error.isVanished && isContent(name):
            // Dangling: watch the folder its target would appear in, when that exists.
            guard case .success(let target) = FileSystem.linkTarget(path) else { return }
            let absolute = target.hasPrefix("/") ? target : FileSystem.join(FileSystem.parent(of: path), target)
            watchFolder(FileSystem.parent(of: absolute))
        case .failure(let error) where error.isVanished || error.rawValue == ELOOP:
            return
        case .failure(let error):
            problems.append(WatchError(.io, path: path, "cannot follow link", error))
        }
    }

    /// Watches `path` if it is an existing folder.
    private mutating func watchFolder(_ path: String) {
        guard case .success(let status) = FileSystem.status(of: path, followingLinks: true),
            status.kind == .directory, case .success(let real) = FileSystem.realPath(path)
        else { return }
        folders[real] = status.id
    }

    /// Watches the nearest existing folder at or above `path` (at worst `/`).
    mutating func watchNearestFolder(from path: String) {
        var candidate = path
        while true {
            if case .success(let status) = FileSystem.status(of: candidate, followingLinks: true),
                status.kind == .directory, case .success(let real) = FileSystem.realPath(candidate)
            {
                folders[real] = status.id
                return
            }
            if candidate == "/" || candidate == "." { return }
            candidate = FileSystem.parent(of: candidate)
        }
    }

    private func isContent(_ name: String) -> Bool {
        FolderScanner.isContent(name, fileExtensions: fileExtensions)
    }
}
