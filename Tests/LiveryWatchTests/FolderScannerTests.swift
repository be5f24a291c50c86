import Foundation
import Testing

@testable import LiveryWatch

/// What one scan finds: content files and the folders to watch. Plain files, no inotify.
@Suite struct FolderScannerTests {
    let folder: TemporaryFolder
    let scanner: FolderScanner

    init() throws {
        folder = try TemporaryFolder()
        scanner = FolderScanner(root: folder.path, fileExtensions: ["json", "yaml", "yml"])
    }

    private func relativePaths(_ snapshot: FolderSnapshot) -> [String] { snapshot.files.map(\.relativePath) }

    @Test func findsContentFilesAndSkipsHiddenOnesAndOtherExtensions() throws {
        try folder.write("card.yaml", "")
        try folder.write("Theme.JSON", "")
        try folder.write("notes.txt", "")
        try folder.write("card.yaml~", "")
        try folder.write(".hidden.yaml", "")
        try folder.makeFolder(".git")
        try folder.write(".git/config.yml", "")
        try folder.makeFolder("sub")
        try folder.write("sub/b.yml", "")
        let snapshot = scanner.scan()
        #expect(relativePaths(snapshot) == ["Theme.JSON", "card.yaml", "sub/b.yml"])
        #expect(Set(snapshot.folders.keys) == [folder.path, folder.at("sub")])
        #expect(snapshot.problems.isEmpty)
    }

    /// Links `shared.yaml` and `themes/` (holding `dark.yaml`) to a folder elsewhere, returned.
    private func linkElsewhere() throws -> TemporaryFolder {
        let elsewhere = try TemporaryFolder()
        try elsewhere.write("shared.yaml", "")
        try elsewhere.makeFolder("themes")
        try elsewhere.write("themes/dark.yaml", "")
        try folder.link("shared.yaml", to: elsewhere.at("shared.yaml"))
        try folder.link("themes", to: elsewhere.at("themes"))
        return elsewhere
    }

    @Test func followsLinksAndWatchesWhereTheyPoint() throws {
        let elsewhere = try linkElsewhere()
        let snapshot = scanner.scan()
        #expect(relativePaths(snapshot) == ["shared.yaml", "themes/dark.yaml"])
        #expect(Set(snapshot.folders.keys) == [folder.path, elsewhere.path, elsewhere.at("themes")])
    }

    @Test func aSpecsFolderScanNotesLinksToFoldersWithoutEnteringThem() throws {
        let elsewhere = try linkElsewhere()
        var specsScanner = scanner
        specsScanner.entersLinkedFolders = false
        let snapshot = specsScanner.scan()
        #expect(relativePaths(snapshot) == ["shared.yaml"])
        #expect(snapshot.linkedFolders == ["themes"])
        // The linked file's folder is watched (edits of it are content); the linked folder is not.
        #expect(Set(snapshot.folders.keys) == [folder.path, elsewhere.path])
        // Where the links to folders are counts: one more changes the fingerprint.
        let before = try snapshot.readContent().get().hash
        try folder.link("more", to: elsewhere.at("themes"))
        #expect(try specsScanner.scan().readContent().get().hash != before)
    }

    @Test func walksALinkCycleOnce() throws {
        try folder.makeFolder("a")
        try folder.write("a/x.yaml", "")
        try folder.link("a/loop", to: "..")
        let snapshot = scanner.scan()
        #expect(relativePaths(snapshot) == ["a/x.yaml"])
        #expect(Set(snapshot.folders.keys) == [folder.path, folder.at("a")])
    }

    @Test func watchesTheFolderADanglingLinkPointsInto() throws {
        let elsewhere = try TemporaryFolder()
        try folder.link("later.yaml", to: elsewhere.at("not-yet.yaml"))
        let snapshot = scanner.scan()
        #expect(snapshot.files.isEmpty)
        #expect(Set(snapshot.folders.keys) == [folder.path, elsewhere.path])
    }

    @Test func aMissingFolderIsUnavailableAndItsNearestAncestorWatched() throws {
        let missing = FolderScanner(root: folder.at("gone/deeper"), fileExtensions: ["yaml"])
        let snapshot = missing.scan()
        guard case .unavailable(let error) = snapshot.state else { throw TestFailure("expected unavailable") }
        #expect(error.code == .folderMissing)
        #expect(Set(snapshot.folders.keys) == [folder.path])
    }

    @Test func aFileInsteadOfAFolderIsUnavailable() throws {
        try folder.write("file", "")
        let snapshot = FolderScanner(root: folder.at("file"), fileExtensions: ["yaml"]).scan()
        guard case .unavailable(let error) = snapshot.state else { throw TestFailure("expected unavailable") }
        #expect(error.code == .notAFolder)
    }

    @Test func theHashCoversPathsAndBytes() throws {
        try folder.write("a.yaml", "x")
        let first = try scanner.scan().readContent().get().hash
        try folder.write("a.yaml", "x")
        #expect(try scanner.scan().readContent().get().hash == first)  // same bytes, same hash
        try folder.write("a.yaml", "y")
        #expect(try scanner.scan().readContent().get().hash != first)
        try folder.write("a.yaml", "x")
        try folder.rename("a.yaml", to: "b.yaml")
        #expect(try scanner.scan().readContent().get().hash != first)  // same bytes, other path
    }
}
