import Foundation
import Synchronization
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// The fast path: a completed save publishes without waiting for the settle window, and a
    /// bad result still waits for it. The window here is 2 s, so "without waiting" is visible
    /// without timing anything finely.
    @Suite struct FastPathTests {
        static let slowWindow = WatchConfiguration(settleWindow: .seconds(2), maximumSettleWindows: 1)

        @Test func anAtomicSavePublishesBeforeTheWindowEnds() async throws {
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                let saved = ContinuousClock.now
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 2\n"], timeout: .seconds(1))
                #expect(ContinuousClock.now - saved < .seconds(1))
                #expect(recorder.watcher.statistics.fastScans >= 1)
            }
        }

        @Test func aWriteInPlacePublishesBeforeTheWindowEnds() async throws {
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                try folder.write("card.yaml", "card: 3\n")
                try await recorder.waitForValue(["card.yaml": "card: 3\n"], timeout: .seconds(1))
            }
        }

        @Test func aBadFileWaitsForTheWindow() async throws {
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                let written = ContinuousClock.now
                try folder.write("card.yaml", "card: BAD\n")
                let error = try await recorder.waitForFailure(timeout: .seconds(5))
                #expect("\(error)" == "card.yaml: error: contains BAD")
                #expect(ContinuousClock.now - written >= .seconds(2))
                #expect(recorder.latestValue == ["card.yaml": "card: 1\n"])
            }
        }

        @Test func aCompletionWithNothingBehindItSkipsTheGrace() async throws {
            // The grace is a second: a value published sooner did not wait for it. An event of
            // another session in the shared kernel queue (other suites run in parallel) sends a
            // save to the grace, so a few saves are allowed to find a quiet moment.
            let configuration = WatchConfiguration(
                settleWindow: .seconds(5), maximumSettleWindows: 1, completionGrace: .seconds(1))
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                var quickest = Duration.seconds(60)
                for step in 2...4 where quickest >= .seconds(1) {
                    let saved = ContinuousClock.now
                    try folder.saveAtomically("card.yaml", "card: \(step)\n")
                    try await recorder.waitForValue(["card.yaml": "card: \(step)\n"], timeout: .seconds(4))
                    quickest = min(quickest, ContinuousClock.now - saved)
                }
                #expect(quickest < .seconds(1))
            }
        }

        @Test func aCompletionWithMoreEventsBehindItWaitsForTheGrace() async throws {
            let grace = Duration.milliseconds(300)
            let configuration = WatchConfiguration(
                settleWindow: .seconds(5), maximumSettleWindows: 1, completionGrace: grace)
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                // The owner thread stops reading, so the save and the writer's next step reach the
                // engine as one delivery that does not end with a completion.
                await InotifyOwner.shared.setDraining(false)
                do {
                    try folder.saveAtomically("card.yaml", "card: 2\n")
                    try folder.write("other.yaml.partial", "still being written")
                } catch {
                    await InotifyOwner.shared.setDraining(true)
                    throw error
                }
                let released = ContinuousClock.now
                await InotifyOwner.shared.setDraining(true)
                try await recorder.waitForValue(["card.yaml": "card: 2\n"], timeout: .seconds(4))
                #expect(ContinuousClock.now - released >= grace)
                #expect(recorder.count == 2)
            }
        }

        @Test func aWriterThatGoesOnWhileTheFastPathLoadsIsPublishedOnce() async throws {
            // The loader's second call (the save's fast scan) lets the writer save its next file
            // after the folder was read: that load is half of the save and must not be published.
            let folder = try TemporaryFolder()
            try folder.write("card.yaml", "card: 1\n")
            let loads = LoadCounter()
            let watcher = FolderWatcher(
                directory: folder.url,
                configuration: WatchConfiguration(
                    settleWindow: .seconds(5), maximumSettleWindows: 1, completionGrace: .milliseconds(50)),
                logger: testLogger
            ) { url in
                let content = try TestLoader.load(url)
                if loads.next() == 2 { try folder.saveAtomically("second.yaml", "second: 1\n") }
                return content
            }
            let recorder = UpdateRecorder(watcher)
            do {
                try await recorder.waitForValue(["card.yaml": "card: 1\n"])
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 2\n", "second.yaml": "second: 1\n"], timeout: .seconds(4))
                #expect(recorder.count == 2, "\(recorder.describe())")
                #expect(loads.count >= 3)
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }

        // The fast path re-reads the last listing only while the events since allow it
        // (KnownListingTests has the rules); otherwise it lists the folder again. The window is
        // 2 s: a change the fast path missed would only show after it.

        @Test func anAtomicSaveOfAListedFileReusesTheListing() async throws {
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 2\n"], timeout: .seconds(1))
                // At least once: events of other suites' watchers can send the fast path to its
                // grace, and it runs again after it.
                #expect(recorder.watcher.statistics.listingsReused >= 1)
            }
        }

        @Test func aFileMovedInUnderANewNameIsListed() async throws {
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                try folder.saveAtomically("new.yaml", "new: 1\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 1\n", "new.yaml": "new: 1\n"], timeout: .seconds(1))
                #expect(recorder.watcher.statistics.listingsReused == 0)
            }
        }

        @Test func aFileCreatedBeforeASaveIsListed() async throws {
            // The new file's own completion comes first; saving another file after it must
            // still see it (its listing includes it, or is made again).
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                try folder.write("new.yaml", "new: 1\n")
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 2\n", "new.yaml": "new: 1\n"], timeout: .seconds(1))
            }
        }

        @Test func aSaveInASubfolderIsListed() async throws {
            try await withWatchedFolder(
                ["card.yaml": "card: 1\n", "sub/b.yaml": "b: 1\n"], configuration: Self.slowWindow
            ) { folder, recorder in
                try folder.saveAtomically("sub/b.yaml", "b: 2\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 1\n", "sub/b.yaml": "b: 2\n"], timeout: .seconds(1))
                #expect(recorder.watcher.statistics.listingsReused == 0)
            }
        }

        @Test func aFolderWithLinksIsAlwaysListed() async throws {
            let elsewhere = try TemporaryFolder()
            try elsewhere.write("shared.yaml", "shared: 1\n")
            try await withWatchedFolder(configuration: Self.slowWindow) { folder, recorder in
                try folder.link("shared.yaml", to: elsewhere.at("shared.yaml"))
                try await recorder.waitForValue(
                    ["card.yaml": "card: 1\n", "shared.yaml": "shared: 1\n"], timeout: .seconds(4))
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 2\n", "shared.yaml": "shared: 1\n"], timeout: .seconds(1))
                #expect(recorder.watcher.statistics.listingsReused == 0)
            }
        }

        @Test func aFolderLeftUnwatchedIsAlwaysListed() async throws {
            // No watch on sub/ (the watch limit, through the test hook): a file written there
            // sends no event, so only a fresh listing sees it. Rescans are 30 s apart.
            let folder = try TemporaryFolder()
            try folder.write("card.yaml", "card: 1\n")
            try folder.makeFolder("sub")
            try folder.write("sub/b.yaml", "b: 1\n")
            let owner = InotifyOwner.shared
            owner.faults.withLock { $0.watchLimitPrefixes.append(folder.at("sub")) }
            defer { owner.faults.withLock { $0.watchLimitPrefixes.removeAll { $0 == folder.at("sub") } } }
            var configuration = Self.slowWindow
            configuration.rescanInterval = .seconds(30)
            let recorder = UpdateRecorder(watching: folder, configuration: configuration)
            do {
                try await recorder.waitForValue(["card.yaml": "card: 1\n", "sub/b.yaml": "b: 1\n"])
                #expect(recorder.watcher.statistics.isRescanningPeriodically)
                try folder.write("sub/c.yaml", "c: 1\n")
                try folder.saveAtomically("card.yaml", "card: 2\n")
                try await recorder.waitForValue(
                    ["card.yaml": "card: 2\n", "sub/b.yaml": "b: 1\n", "sub/c.yaml": "c: 1\n"], timeout: .seconds(1))
                #expect(recorder.watcher.statistics.listingsReused == 0)
            } catch {
                await recorder.stop()
                throw error
            }
            await recorder.stop()
        }

        @Test func offMeansEverythingWaitsForTheWindow() async throws {
            var configuration = Self.slowWindow
            configuration.completionGrace = nil
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                let saved = ContinuousClock.now
                try folder.saveAtomically("card.yaml", "card: 4\n")
                try await recorder.waitForValue(["card.yaml": "card: 4\n"], timeout: .seconds(5))
                #expect(ContinuousClock.now - saved >= .seconds(2))
                #expect(recorder.watcher.statistics.fastScans == 0)
            }
        }
    }
}

/// Counts a loader's calls from whichever task runs it.
private final class LoadCounter: Sendable {
    private let calls = Atomic<Int>(0)

    /// Counts a call; returns its number, from 1.
    func next() -> Int { calls.add(1, ordering: .relaxed).newValue }

    var count: Int { calls.load(ordering: .relaxed) }
}
