import Foundation
import Hummingbird
import Logging

/// The files of Livery Studio (HTML, CSS, JavaScript modules), read once from the package's
/// resources and served from memory: a request can only ever name one of them, never a path on
/// disk.
struct StudioAssets: Sendable {
    /// One file, ready to send.
    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let etag: EntityTag
    }

    /// The files by their path below `/studio/` (`index.html`, `js/app.js`).
    let files: [String: Asset]

    /// The name of the resource bundle SwiftPM builds for this target, next to the executable.
    static let bundleName = "Livery_LiveryServer.resources"

    /// The folders searched for the studio's files: beside the running executable (as built, or
    /// copied with it), then beside the file a symbolic link to it points at.
    static func candidateFolders() -> [URL] {
        var folders = [Bundle.main.bundleURL.appending(path: bundleName).appending(path: "Page")]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(executable.deletingLastPathComponent().appending(path: bundleName).appending(path: "Page"))
        }
        return folders
    }

    /// Reads the studio from the first candidate folder that has an `index.html`; nil, logged,
    /// when none has.
    static func load(logger: Logger) -> StudioAssets? {
        let folders = candidateFolders()
        guard
            let folder = folders.first(where: {
                FileManager.default.fileExists(atPath: $0.appending(path: "index.html").path)
            })
        else {
            logger.warning(
                "the studio's files not found; /studio/ answers 503",
                metadata: [
                    "livery.searched": "\(folders.map(\.path))",
                    "livery.expected": "\(bundleName)/Page beside the executable",
                ])
            return nil
        }
        do {
            return StudioAssets(files: try read(folder))
        } catch {
            logger.warning(
                "the studio's files not readable; /studio/ answers 503",
                metadata: ["livery.folder": "\(folder.path)", "livery.error": "\(error)"])
            return nil
        }
    }

    private static func read(_ folder: URL) throws -> [String: Asset] {
        var files: [String: Asset] = [:]
        let root = folder.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else {
            return files
        }
        for case let url as URL in walker {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                let type = contentType(of: url.pathExtension)
            else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.count))
            let data = try Data(contentsOf: url)
            files[path] = Asset(
                bytes: ByteBuffer(bytes: data), contentType: type, etag: EntityTag(of: data))
        }
        return files
    }

    /// The media type of the kinds of file the studio is made of; others are not served.
    static func contentType(of pathExtension: String) -> String? {
        switch pathExtension {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: nil
        }
    }
}
