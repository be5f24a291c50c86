import Foundation
import LiveryTesting

/// The repository's example specs (`Specs/`), for tests that run on them.
enum RepositorySpecs {
    static let folder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Specs", directoryHint: .isDirectory)

    /// The file names in `Specs/`, sorted.
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A fresh folder with a copy of `Specs/` in `specs/`, for tests that edit it.
    static func copy() throws -> TemporarySpecFolder {
        let copy = try TemporarySpecFolder(prefix: "livery-demo")
        for name in try names() {
            try copy.write("specs/\(name)", String(contentsOf: folder.appending(path: name), encoding: .utf8))
        }
        return copy
    }
}
