import Foundation

/// The loader the tests watch with: every non-hidden `*.json`, `*.yaml`, `*.yml` file below the
/// folder (links followed), relative path → contents. A file containing `BAD` makes it throw,
/// so failure handling is exercised for real.
enum TestLoader {
    typealias Content = [String: String]

    struct BadContent: Error, CustomStringConvertible {
        var file: String
        var description: String { "\(file): error: contains BAD" }
    }

    static func load(_ folder: URL) throws -> Content {
        var content: Content = [:]
        try collect(folder.path(percentEncoded: false), relative: "", into: &content)
        return content
    }

    private static func collect(_ path: String, relative: String, into content: inout Content) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: path).sorted() where !name.hasPrefix(".") {
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: child, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try collect(child, relative: childRelative, into: &content)
            } else if ["json", "yaml", "yml"].contains((name as NSString).pathExtension.lowercased()) {
                let text = try String(contentsOfFile: child, encoding: .utf8)
                if text.contains("BAD") { throw BadContent(file: childRelative) }
                content[childRelative] = text
            }
        }
    }
}
