import Foundation
import Glibc
import LiveryTestSupport
import LiveryTesting
import Synchronization
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// The shared owner thread: stopping, leaks, queue overflows. They count the process's
    /// watches, so no other suite's watcher may run meanwhile.
    @Suite(.inotifyExclusive) struct InotifyOwnerTests {
        let owner = InotifyOwner.shared

        /// Waits for other suites' watchers to end: a test holding the gate shared may give it
        /// back while its daemon's watcher is still stopping (a daemon stopped from a detached
        /// task), and these tests count every session of the process.
        init() async throws {
            try await eventually("the watchers of other suites to end", timeout: .seconds(10)) {
                await InotifyOwner.shared.watchCounts().isQuiet
            }
        }

        @Test func stopIsPromptAndRemovesTheWatches() async throws {
            let folder = try TemporaryFolder()
            try folder.makeFolder("sub")
            try folder.write("sub/a.yaml", "a\n")
            let recorder = UpdateRecorder(watching: folder)
            try await recorder.waitForValue(["sub/a.yaml": "a\n"])
            let counts = await owner.watchCounts()
            #expect(counts.owner == 2 && counts.kernel == 2 && counts.sessions == 1)

            let started = ContinuousClock.now
            await recorder.watcher.stop()
            #expect(ContinuousClock.now - started < .milliseconds(100))
            await recorder.finished()  // the consumer saw the end of the updates
            #expect(await owner.watchCounts().isQuiet)
        }

        @Test func cancellingTheConsumerStopsTheWatcher() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.yaml", "a\n")
            let recorder = UpdateRecorder(watching: folder)
            try await recorder.waitForValue(["a.yaml": "a\n"])
            let started = ContinuousClock.now
            recorder.cancel()
            await recorder.finished()
            #expect(ContinuousClock.now - started < .milliseconds(100))
            try await eventually("the watches to go", timeout: .milliseconds(500)) {
                await owner.watchCounts().isQuiet
            }
        }

        @Test func fiftyWatchersStartedAndStoppedLeaveNothingBehind() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.yaml", "a\n")
            try folder.makeFolder("sub")
            // Start from a fresh library: earlier tests deleted watched folders, and the library
            // keeps those kernel-dropped watches until it is closed.
            try await closeTheLibrary()
            // Warm up: the owner thread and whatever threads the runtime keeps are in the baseline.
            try await startAndStop(folder)
            let baseline = try threadCount()

            for _ in 1...50 { try await startAndStop(folder) }

            // Checked while the library is still open: its own bookkeeping is back to zero.
            #expect(await owner.watchCounts() == .zero)
            try await eventually("the thread count to return to \(baseline)") { try threadCount() <= baseline }
            #expect(owner.state.withLock { $0.threadsRunning } == 1)
        }

        @Test func theOwnerThreadExitsWhenIdle() async throws {
            let folder = try TemporaryFolder()
            try folder.write("a.yaml", "a\n")
            try folder.makeFolder("sub")
            try await startAndStop(folder)
            let running = try threadCount()
            try await closeTheLibrary()
            #expect(await owner.watchCounts() == .zero)
            try await eventually("its thread to end") { try threadCount() < running }
            // And the next watcher starts a fresh one.
            let started = owner.state.withLock { $0.threadsStarted }
            try await startAndStop(folder)
            #expect(owner.state.withLock { $0.threadsStarted } == started + 1)
        }

        /// Lets the owner thread exit (closing the library) and waits until it has.
        private func closeTheLibrary() async throws {
            let linger = owner.idleLinger
            owner.state.withLock { $0.idleLinger = .milliseconds(10) }
            defer { owner.state.withLock { $0.idleLinger = linger } }
            owner.unregisterSoon(owner.makeWatcherID())  // wakes the thread so it sees the new linger
            // The exiting thread releases the old inotify instance last; the kernel can take its
            // time over that (an SRCU grace period: milliseconds, but 12 s was seen on a saturated
            // machine), hence the generous limit.
            try await eventually("the owner thread to finish", timeout: .seconds(45)) {
                owner.state.withLock { $0.phase == .idle && $0.threadsRunning == 0 }
            }
        }

        @Test func aQueueOverflowForcesARescanWithTheRightResult() async throws {
            let limit = try #require(Int(try procValue("/proc/sys/fs/inotify/max_queued_events")))
            try await withWatchedFolder(["a.yaml": "a\n", "b.yaml": "b\n"]) { folder, recorder in
                await owner.setDraining(false)
                do {
                    // IN_ATTRIB on two files in turn: the kernel merges an event only into an
                    // identical previous one, so each chmod queues one, until the queue overflows.
                    for step in 0..<(limit + 1000) {
                        let path = folder.at(step.isMultiple(of: 2) ? "a.yaml" : "b.yaml")
                        guard chmod(path, step % 4 < 2 ? 0o600 : 0o644) == 0 else { throw TestFailure("chmod") }
                    }
                    // Its events are lost in the overflow: only the rescan can see this.
                    try folder.write("a.yaml", "a: after the overflow\n")
                } catch {
                    await owner.setDraining(true)
                    throw error
                }
                await owner.setDraining(true)
                try await recorder.waitForValue(["a.yaml": "a: after the overflow\n", "b.yaml": "b\n"])
                let statistics = recorder.watcher.statistics
                #expect(statistics.overflows == 1)
                #expect(statistics.rescans >= 1)
                // Still watched afterwards.
                try folder.write("b.yaml", "b: 2\n")
                try await recorder.waitForValue(["a.yaml": "a: after the overflow\n", "b.yaml": "b: 2\n"])
            }
        }

        private func startAndStop(_ folder: TemporaryFolder) async throws {
            let watcher = FolderWatcher(directory: folder.url, loader: TestLoader.load)
            var updates = watcher.makeAsyncIterator()
            #expect(await updates.next()?.value == ["a.yaml": "a\n"])
            #expect(watcher.statistics.watchedFolders == 2)
            await watcher.stop()
        }
    }
}

extension InotifyWatchCounts {
    /// No session and no watch; the library may still list watches the kernel dropped.
    var isQuiet: Bool { owner == 0 && kernel == 0 && sessions == 0 }
}
