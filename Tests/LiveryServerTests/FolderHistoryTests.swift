import Foundation
import Livery
import LiveryHTTP
import LiveryTesting
import Testing

@testable import LiveryServer

/// The history of a daemon on a specs folder, kept in its state folder: pushes and edits on
/// disk, restore, the limit, and a restart.
@Suite(.timeLimit(.minutes(1))) struct FolderHistoryTests {
    @Test func pushesAndDiskEditsAreRecordedOnceAndARevisionIsRestored() async throws {
        try await TestDaemon.with { daemon in
            // The folder as the daemon found it is the first revision.
            #expect(try await entries(daemon).map(\.summary) == ["1 disk edited on disk card.yaml,palette.yaml"])

            let red = TestDaemon.exampleFiles(accent: "#FF0000")["palette.yaml"] ?? nil
            let pushed = try await daemon.publishAndWait(["palette.yaml": red], message: "red")
            try daemon.folder.atomicSave("palette.yaml", "variables:\n  colors:\n    accent: \"#00FF00\"\n")
            #expect(try await TestDaemon.eventually { try await entries(daemon).count == 3 })
            // A push is recorded once, by the push key, though the follower loads its files too.
            #expect(
                try await entries(daemon).map(\.summary) == [
                    "3 disk edited on disk palette.yaml", "2 token-file red palette.yaml",
                    "1 disk edited on disk card.yaml,palette.yaml",
                ])

            let then = try await daemon.http.get("/v1/history/2")
            #expect(then.status == 200)
            #expect(then.header("ETag") == pushed)
            let restored = try await daemon.http.post("/v1/history/2/restore", json: "")
            #expect(restored.status == 200, "\(restored.text)")
            #expect(try restored.json()["revision"] as? Int == 4)
            #expect(try await daemon.serves(pushed))
            #expect(try await entries(daemon).first?.summary == "4 token-file restore revision 2 palette.yaml")
            #expect(try await daemon.http.get("/v1/history/5").status == 404)
        }
    }

    @Test func aStateFolderThatDoesNotExistYetIsMadeByTheFirstPublish() async throws {
        let parent = try TemporarySpecFolder(prefix: "livery-state")
        let state = parent.url.appending(path: "not/yet")
        try await TestDaemon.with(configure: { $0.stateDirectory = state }) { daemon in
            try await daemon.publishAndWait(["n.yaml": "specs:\n  n: []\n"], message: "first")
            #expect(try await entries(daemon).map(\.message).first == "first")
            let mode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
            #expect(mode == 0o700)
        }
    }

    @Test func theHistoryKeepsTheNewestPublishesUpToItsLimitAndTheirFilesOnly() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-state")
        try await TestDaemon.with(configure: {
            $0.stateDirectory = state.url; $0.historyLimit = 3
        }) { daemon in
            for index in 1...5 {
                try await daemon.publishAndWait(["n.yaml": "specs:\n  n\(index): []\n"], message: "m\(index)")
            }
            #expect(try await entries(daemon).map(\.message) == ["m5", "m4", "m3"])
            let gone = try await daemon.http.get("/v1/history/2")
            #expect(gone.status == 410)
            #expect(
                try gone.json()["detail"] as? String
                    == "revision 2 is no longer in the history, which keeps the newest --history-limit publishes")
            let history = try #require(
                try FileManager.default.contentsOfDirectory(at: state.url, includingPropertiesForKeys: nil).first {
                    $0.lastPathComponent.hasPrefix("history-")
                })
            let names = { (folder: String) in
                try FileManager.default.contentsOfDirectory(atPath: history.appending(path: folder).path)
            }
            #expect(try names("revisions").count == 3)
            // card.yaml and palette.yaml, and the three n.yaml kept: the two older ones are gone.
            #expect(try names("blobs").count == 5)
        }
    }

    @Test func aRestartKeepsTheHistoryAndRecordsNothingNew() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-state")
        let folder = try TemporarySpecFolder(prefix: "livery-server")
        try TestDaemon.writeExample(to: folder)
        let configure: (inout DaemonConfiguration) -> Void = { $0.stateDirectory = state.url }
        try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            _ = try await daemon.publishAndWait(["n.yaml": "specs:\n  n: []\n"], message: "added n")
        }
        try await TestDaemon.with(folder: folder, configure: configure) { daemon in
            #expect(try await daemon.bundleETag() != nil)
            #expect(try await entries(daemon).map(\.message) == ["added n", "edited on disk"])
            try await daemon.publishAndWait(["n.yaml": nil], message: "removed n")
            #expect(try await entries(daemon).map(\.summary).first == "3 token-file removed n n.yaml")
        }
    }

    @Test func aCrashLeavesAReadableHistoryAndItsStrayFilesAreRemoved() async throws {
        let state = try TemporarySpecFolder(prefix: "livery-state")
        let folder = try TemporarySpecFolder(prefix: "livery-server")
        try TestDaemon.writeExample(to: folder)
        let configure: (inout DaemonConfiguration) -> Void = { $0.stateDirectory = state.url }
        let history = try await TestDaemon.with(folder: folder, configure: configure) { daemon -> URL in
            _ = try await daemon.publishAndWait(["n.yaml": "specs:\n  n: []\n"], message: "added n")
            return try #require(
                try FileManager.default.contentsOfDirectory(at: state.url, includingPropertiesForKeys: nil).first {
                    $0.lastPathComponent.hasPrefix("history-")
                })
        }
        // What a crash can leave: a blob written for a publish that never got its manifest, and
        // a manifest's temporary file that was never renamed.
        let stray = history.appending(path: "blobs/" + String(repeating: "ab", count: 32))
        try Data("specs:\n  lost: []\n".utf8).write(to: stray)
        let temporary = history.appending(path: "revisions/.00000000000000000003.json.livery-1.tmp")
        try Data("{\"revi".utf8).write(to: temporary)
        try await TestDaemon.with(folder: folder, configure: configure) { (daemon: TestDaemon) async throws -> Void in
            #expect(try await daemon.bundleETag() != nil)
            #expect(try await entries(daemon).map(\.message) == ["added n", "edited on disk"])
            #expect(!FileManager.default.fileExists(atPath: stray.path))
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
            #expect(try await daemon.http.get("/v1/history/2").status == 200)
        }
    }

    @Test func theFirstPublishMakesTheStateFolder() throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-history")
        let state = scratch.url.appending(path: "state")
        var history = FolderHistory(folder: state.appending(path: "history-specs"), limit: 4)
        var sources = SpecSourceSet()
        try sources.set("card.yaml", to: Data("specs:\n  card: []\n".utf8))
        let blobs = try history.keepBlobs(of: sources)
        #expect(try history.append(blobs: blobs, paths: ["card.yaml"], message: "first", by: "test") == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the state folder is its owner's alone")
    }

    @Test func aPublishsBlobsAreNamedOnlyWithItsRevision() throws {
        let scratch = try TemporarySpecFolder(prefix: "livery-history")
        let folder = scratch.url.appending(path: "state/history-specs")
        var history = FolderHistory(folder: folder, limit: 4)
        let text = Data("specs:\n  card: []\n".utf8)
        var sources = SpecSourceSet()
        try sources.set("card.yaml", to: text)
        try sources.set("copy.yaml", to: text)
        let blobs = folder.appending(path: "blobs").path
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: blobs).sorted() }

        // Staged before the files change, so a full disk refuses the publish; but not named:
        // a crash now must not leave a blob that was never flushed under its hash.
        let refused = try history.keepBlobs(of: sources)
        #expect(try names().count == 1, "one temporary file for the two files of the same bytes")
        #expect(try names().allSatisfy { $0.hasPrefix(".") })
        refused.discard()
        #expect(try names() == [], "a publish that did not happen leaves nothing")

        let kept = try history.keepBlobs(of: sources)
        #expect(try history.append(blobs: kept, paths: ["card.yaml", "copy.yaml"], message: "m", by: "t") == 1)
        #expect(try names() == [SHA256.digest(text).map { String(format: "%02x", $0) }.joined()])
        #expect(try history.sources(at: 1).files.mapValues(\.data) == sources.files.mapValues(\.data))
    }

    private func entries(_ daemon: TestDaemon) async throws -> [Entry] {
        let reply = try await daemon.http.get("/v1/history")
        guard reply.status == 200 else {
            throw HTTPTestError("GET /v1/history answered \(reply.status): \(reply.text)")
        }
        return try JSONDecoder().decode(Page.self, from: Data(reply.text.utf8)).entries
    }

    private struct Page: Decodable {
        var entries: [Entry]
    }

    private struct Entry: Decodable {
        var revision: Int
        var by: String
        var message: String
        var paths: [String]

        var summary: String { "\(revision) \(by) \(message) \(paths.joined(separator: ","))" }
    }
}
