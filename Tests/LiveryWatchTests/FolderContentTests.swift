import CDispatch
import Foundation
import Livery
import PropertyBased
import Testing

@testable import LiveryWatch

/// The watcher loads the bytes its scan read: they must make the same spec files as reading the
/// folder (`SpecSourceSet(directory:)`) does. Plain files, no inotify.
@Suite struct FolderContentTests {
    let folder: TemporaryFolder
    let scanner: FolderScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = FolderScanner(root: folder.path, fileExtensions: ["json", "yaml", "yml"])
    }

    private func scannedSources(limits: ReaderLimits = .default) throws -> SpecSourceSet {
        try scanner.scan().readContent().get().specSources(limits: limits)
    }

    private func readSources(limits: ReaderLimits = .default) throws -> SpecSourceSet {
        try SpecSourceSet(directory: URL(filePath: folder.path), limits: limits)
    }

    private func summary(_ sources: SpecSourceSet) -> [String] {
        sources.sortedPaths.map { "\($0)=\(String(decoding: sources.files[$0]!.data, as: UTF8.self))" }
            + sources.linkedFolders.sorted().map { "link:\($0)" }
    }

    @Test func makesTheSameFilesAsReadingTheFolder() throws {
        let elsewhere = try TemporaryFolder()
        try elsewhere.write("shared.yaml", "shared")
        try elsewhere.makeFolder("themes")
        try elsewhere.write("themes/dark.yaml", "dark")
        try elsewhere.makeFolder("themes/inner")
        try elsewhere.write("themes/inner/deep.yml", "deep")
        try folder.write("card.yaml", "card")
        try folder.write("Theme.JSON", "theme")
        try folder.write("notes.txt", "notes")
        try folder.write(".hidden.yaml", "hidden")
        try folder.makeFolder("sub")
        try folder.write("sub/b.yml", "b")
        try folder.link("shared.yaml", to: elsewhere.at("shared.yaml"))  // a linked file loads
        try folder.link("themes", to: elsewhere.at("themes"))  // a linked folder does not
        try folder.link("sub/themes", to: elsewhere.at("themes/inner"))  // nor a link inside it
        let scanned = try scannedSources()
        #expect(
            summary(scanned) == [
                "Theme.JSON=theme", "card.yaml=card", "shared.yaml=shared", "sub/b.yml=b", "link:sub/themes",
                "link:themes",
            ])
        #expect(summary(scanned) == summary(try readSources()))
    }

    /// `a` sorts before `b`, which `a` links to: `b`'s files are named where they really are.
    @Test func namesAFolderLinkedFromInsideTheTreeWhereItIs() throws {
        try folder.makeFolder("b")
        try folder.write("b/x.yaml", "x")
        try folder.link("a", to: "b")
        try folder.makeFolder("m")
        try folder.link("m/up", to: "../z")  // a link met before the folder it points to
        try folder.makeFolder("z")
        try folder.write("z/y.yaml", "y")
        let scanned = try scannedSources()
        #expect(summary(scanned) == ["b/x.yaml=x", "z/y.yaml=y", "link:a", "link:m/up"])
        #expect(summary(scanned) == summary(try readSources()))
    }

    @Test func refusesAFileOverTheLimitAsReadingTheFolderDoes() throws {
        try folder.write("big.yaml", String(repeating: "x", count: 200))
        let limits = ReaderLimits(maxBytes: 100)
        let scanned = #expect(throws: SpecError.self) { try scannedSources(limits: limits) }
        let read = #expect(throws: SpecError.self) { try readSources(limits: limits) }
        #expect(scanned?.description == "big.yaml:1:1: error: file is 200 bytes; the limit is 100 bytes")
        #expect(scanned?.description == read?.description)
    }

    @Test func fingerprintsWithoutReadingAFileOverTheLargestHashed() throws {
        let big = folder.at("huge.yaml")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(FolderSnapshot.largestHashedFile + 1))
        try handle.close()
        let content = try scanner.scan().readContent().get()
        #expect(content.files.map(\.relativePath) == ["huge.yaml"])
        #expect(content.files.first?.bytes == nil)
        #expect(content.files.first?.size == FolderSnapshot.largestHashedFile + 1)
        let error = #expect(throws: SpecError.self) { try content.specSources(limits: .default) }
        #expect(error?.code == .limitExceeded)
    }
}

/// For random trees of files, folders, hidden entries and links (to files and folders, inside
/// and outside the tree, dangling, cyclic), the scanned bytes make the same spec files as
/// reading the folder.
@Suite struct FolderContentPropertyTests {
    static let names = [
        "a.yaml", "b.yml", "C.JSON", "notes.txt", ".hidden.yaml", "sub", "themes", ".data", "x.yaml~", "d.json",
    ]

    /// Builds a tree from numbers (so shrinking works on plain integers): each entry takes three.
    static func build(_ seeds: [Int], in folder: TemporaryFolder, elsewhere: TemporaryFolder) throws {
        try elsewhere.write("outside.yaml", "outside: 1\n")
        try elsewhere.makeFolder("d")
        try elsewhere.write("d/inner.yml", "inner: 1\n")
        try elsewhere.makeFolder("d/e")
        try elsewhere.write("d/e/deep.json", "{}")
        var folders = [""]
        for index in stride(from: 0, to: seeds.count - 2, by: 3) {
            let parent = folders[seeds[index] % folders.count]
            let relative = (parent.isEmpty ? "" : parent + "/") + names[seeds[index + 1] % names.count]
            guard !exists(folder.at(relative)) else { continue }
            switch seeds[index + 2] % 8 {
            case 0, 1: try folder.write(relative, "\(relative): \(seeds[index + 2])\n")
            case 2:
                try folder.makeFolder(relative)
                folders.append(relative)
            case 3: try folder.link(relative, to: elsewhere.at("outside.yaml"))
            case 4: try folder.link(relative, to: elsewhere.at("d"))
            case 5:  // to a folder of the tree, other than the top one when there is one
                let target = folders.count == 1 ? "" : folders[1 + seeds[index + 2] / 8 % (folders.count - 1)]
                try folder.link(relative, to: folder.at(target))
            case 6: try folder.link(relative, to: elsewhere.at("missing.yaml"))
            default: try folder.link(relative, to: parent.isEmpty ? "." : "..")  // a cycle
            }
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func summary(_ sources: Result<SpecSourceSet, any Error>) -> [String] {
        switch sources {
        case .success(let sources):
            sources.sortedPaths.map { "\($0)=\(String(decoding: sources.files[$0]!.data, as: UTF8.self))" }
                + sources.linkedFolders.sorted().map { "link:\($0)" }
        case .failure(let error):
            ["error: \(error)"]
        }
    }

    @Test func scannedBytesMakeTheSameSpecFilesAsReadingTheFolder() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000).array(of: 3...36)) { seeds in
            do {
                let folder = try TemporaryFolder()
                let elsewhere = try TemporaryFolder()
                try Self.build(seeds, in: folder, elsewhere: elsewhere)
                let read = Result { () throws -> SpecSourceSet in try SpecSourceSet(directory: folder.url) }
                for entersLinkedFolders in [true, false] {
                    let scanner = FolderScanner(
                        root: folder.path, fileExtensions: ["json", "yaml", "yml"],
                        entersLinkedFolders: entersLinkedFolders)
                    let scanned = Result { () throws -> SpecSourceSet in
                        try scanner.scan().readContent().get().specSources(limits: .default)
                    }
                    #expect(
                        Self.summary(scanned) == Self.summary(read),
                        "tree from \(seeds), entering linked folders: \(entersLinkedFolders)")
                }
            } catch {
                Issue.record("could not build the tree from \(seeds): \(error)")
            }
        }
    }
}
