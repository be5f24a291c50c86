import Foundation
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// The watched folder disappearing, links, and Kubernetes' `..data` indirection.
    @Suite struct FolderWatcherRecoveryTests {
        @Test func theWatchedFolderDeletedAndRecreated() async throws {
            let parent = try TemporaryFolder()
            try parent.makeFolder("specs")
            try parent.write("specs/card.yaml", "card: 1\n")
            let recorder = UpdateRecorder(
                FolderWatcher(directory: URL(filePath: parent.at("specs")), loader: TestLoader.load)
            )
            do {
                try await recorder.waitForValue(["card.yaml": "card: 1\n"])
                try parent.remove("specs")
                let error = try #require(try await recorder.waitForFailure() as? WatchError)
                #expect(error.code == .folderMissing)
                #expect(
                    error.description
                        == "\(parent.at("specs")): error: the watched folder is missing; waiting for it to come back")
                #expect(recorder.latestValue == ["card.yaml": "card: 1\n"])

                try parent.makeFolder("specs")
                try parent.write("specs/card.yaml", "card: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 2\n"])
                // It is watched again, not polled.
                #expect(recorder.watcher.statistics.isRescanningPeriodically == false)
                try parent.write("specs/card.yaml", "card: 3\n")
                try await recorder.waitForValue(["card.yaml": "card: 3\n"])
                #expect(recorder.failures.count == 1)
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }

        @Test func aLinkToAFileElsewhereIsFollowed() async throws {
            let elsewhere = try TemporaryFolder()
            try elsewhere.write("shared.yaml", "shared: 1\n")
            try await withWatchedFolder { folder, recorder in
                try folder.link("shared.yaml", to: elsewhere.at("shared.yaml"))
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "shared.yaml": "shared: 1\n"])
                // Edits of the target produce no event in the watched folder: its folder is watched too.
                try elsewhere.write("shared.yaml", "shared: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "shared.yaml": "shared: 2\n"])
                try elsewhere.saveAtomically("shared.yaml", "shared: 3\n")
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "shared.yaml": "shared: 3\n"])
            }
        }

        @Test func aLinkToAFolderElsewhereIsWalkedAndWatched() async throws {
            let elsewhere = try TemporaryFolder()
            try elsewhere.write("theme.yaml", "theme: 1\n")
            try await withWatchedFolder { folder, recorder in
                try folder.link("themes", to: elsewhere.path)
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "themes/theme.yaml": "theme: 1\n"])
                try elsewhere.write("dark.yaml", "dark: 1\n")
                try await recorder.waitForValue([
                    "card.yaml": "card: 1\n", "themes/theme.yaml": "theme: 1\n", "themes/dark.yaml": "dark: 1\n",
                ])
            }
        }

        @Test func aKubernetesConfigMapUpdate() async throws {
            // The layout the kubelet writes: visible links into `..data`, itself a link to a
            // timestamped folder, all swapped at once by renaming a new `..data` over the old.
            let folder = try TemporaryFolder()
            try folder.makeFolder("..2026_11_22_v1")
            try folder.write("..2026_11_22_v1/card.yaml", "card: 1\n")
            try folder.write("..2026_11_22_v1/theme.json", "{\"v\": 1}")
            try folder.link("..data", to: "..2026_11_22_v1")
            try folder.link("card.yaml", to: "..data/card.yaml")
            try folder.link("theme.json", to: "..data/theme.json")
            let recorder = UpdateRecorder(watching: folder)
            do {
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "theme.json": "{\"v\": 1}"])

                try folder.makeFolder("..2026_11_22_v2")
                try folder.write("..2026_11_22_v2/card.yaml", "card: 2\n")
                try folder.write("..2026_11_22_v2/theme.json", "{\"v\": 2}")
                try folder.link("..data_tmp", to: "..2026_11_22_v2")
                try folder.rename("..data_tmp", to: "..data")
                try folder.remove("..2026_11_22_v1")
                try await recorder.waitForValue(["card.yaml": "card: 2\n", "theme.json": "{\"v\": 2}"])
                #expect(recorder.failures.isEmpty)
                // The hidden timestamped folders are never content of their own.
                #expect(recorder.all.allSatisfy { $0.value?.keys.contains { $0.hasPrefix(".") } != true })
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }

        @Test func specWatcherLoadsSpecs() async throws {
            let folder = try TemporaryFolder()
            try folder.write("card.yaml", "specs: {}\n")
            let watcher = SpecWatcher(directory: folder.url)
            var updates = watcher.makeAsyncIterator()
            let first = await updates.next()
            #expect(first?.value != nil)
            await watcher.stop()
            #expect(await updates.next() == nil)
        }
    }
}
