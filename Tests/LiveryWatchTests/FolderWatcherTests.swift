import Foundation
import Glibc
import LiveryTestSupport
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// Each way of changing a folder's content produces the right new value.
    @Suite struct FolderWatcherTests {
        @Test func publishesTheFirstValueRightAfterStart() async throws {
            let started = ContinuousClock.now
            try await withWatchedFolder(["a.json": "{}", "b.yml": "b"]) { _, recorder in
                #expect(ContinuousClock.now - started < .milliseconds(200))
                #expect(recorder.count == 1)
                #expect(recorder.watcher.statistics.publishes == 1)
            }
        }

        @Test func writeInPlace() async throws {
            try await withWatchedFolder { folder, recorder in
                let before = ContinuousClock.now
                try folder.write("card.yaml", "card: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 2\n"])
                // One change waits one settle window (20 ms), not a long debounce.
                #expect(ContinuousClock.now - before < .milliseconds(150))
                #expect(recorder.count == 2)
            }
        }

        @Test func atomicSave() async throws {
            try await withWatchedFolder { folder, recorder in
                try folder.saveAtomically("card.yaml", "card: atomic\n")
                try await recorder.waitForValue(["card.yaml": "card: atomic\n"])
                #expect(recorder.failures.isEmpty)
            }
        }

        @Test func vimSave() async throws {
            try await withWatchedFolder { folder, recorder in
                try folder.saveLikeVim("card.yaml", "card: vim\n")
                try await recorder.waitForValue(["card.yaml": "card: vim\n"])
                #expect(recorder.failures.isEmpty)
            }
        }

        @Test func cpOver() async throws {
            try await withWatchedFolder { folder, recorder in
                let elsewhere = try TemporaryFolder()
                try elsewhere.write("source.yaml", "card: copied\n")
                let cp = try await ChildProcess.run("/bin/cp", [elsewhere.at("source.yaml"), folder.at("card.yaml")])
                #expect(cp.terminationStatus == 0)
                try await recorder.waitForValue(["card.yaml": "card: copied\n"])
            }
        }

        @Test func moveIntoAndOutOfTheFolder() async throws {
            try await withWatchedFolder { folder, recorder in
                let elsewhere = try TemporaryFolder()
                try elsewhere.write("theme.yml", "theme: x\n")
                // Same file system, so rename(2) is what `mv` does.
                guard rename(elsewhere.at("theme.yml"), folder.at("theme.yml")) == 0 else { throw TestFailure("mv in") }
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "theme.yml": "theme: x\n"])
                guard rename(folder.at("card.yaml"), elsewhere.at("card.yaml")) == 0 else {
                    throw TestFailure("mv out")
                }
                try await recorder.waitForValue(["theme.yml": "theme: x\n"])
            }
        }

        @Test func delete() async throws {
            try await withWatchedFolder { folder, recorder in
                try folder.remove("card.yaml")
                try await recorder.waitForValue([:])
            }
        }

        @Test func newSubfolderWithFilesWrittenBeforeItsWatchExists() async throws {
            try await withWatchedFolder { folder, recorder in
                // All of this happens long before the watcher can place a watch on `new`.
                try folder.makeFolder("new")
                try folder.write("new/a.yaml", "a\n")
                try folder.makeFolder("new/deeper")
                try folder.write("new/deeper/b.json", "b\n")
                try await recorder.waitForValue([
                    "card.yaml": "card: 1\n", "new/a.yaml": "a\n", "new/deeper/b.json": "b\n",
                ])
                // And the new folders are watched now.
                try folder.write("new/deeper/b.json", "b2\n")
                try await recorder.waitForValue([
                    "card.yaml": "card: 1\n", "new/a.yaml": "a\n", "new/deeper/b.json": "b2\n",
                ])
            }
        }

        @Test func subfolderRenamedThenDeleted() async throws {
            try await withWatchedFolder { folder, recorder in
                try folder.makeFolder("sub")
                try folder.write("sub/x.yaml", "x\n")
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "sub/x.yaml": "x\n"])
                try folder.rename("sub", to: "renamed")
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "renamed/x.yaml": "x\n"])
                try folder.write("renamed/x.yaml", "x2\n")
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "renamed/x.yaml": "x2\n"])
                try folder.remove("renamed")
                try await recorder.waitForValue(["card.yaml": "card: 1\n"])
                // `rm -rf` may span two scans (files, then the folder): wait for the last one.
                try await eventually("the watch to go") { recorder.watcher.statistics.watchedFolders == 1 }
            }
        }

        @Test func hiddenFilesAreNotContent() async throws {
            try await withWatchedFolder { folder, recorder in
                let scans = recorder.watcher.statistics.scans
                try folder.write(".card.yaml.swp", "swap")
                try folder.write(".hidden.yaml", "BAD")
                try folder.makeFolder(".git")
                try folder.write(".git/config.yaml", "BAD")
                try await recorder.waitForScan(after: scans)
                #expect(recorder.watcher.statistics.publishes == 1)
            }
        }
    }
}
