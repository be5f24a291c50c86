import Foundation
import Testing

@testable import LiveryWatch

extension WatchIOTests {
    /// Bursts, bad intermediate states and repeated bytes: what gets published and what not.
    @Suite struct FolderWatcherSettlingTests {
        @Test func savingTheSameBytesAgainPublishesNothing() async throws {
            try await withWatchedFolder { folder, recorder in
                let scans = recorder.watcher.statistics.scans
                try folder.write("card.yaml", "card: 1\n")
                try await recorder.waitForScan(after: scans)
                try folder.saveAtomically("card.yaml", "card: 1\n")
                try await recorder.waitForScan(after: scans + 1)
                #expect(recorder.watcher.statistics.publishes == 1)
                #expect(recorder.count == 1)
            }
        }

        @Test func aBurstIsPublishedOnce() async throws {
            // A window wide enough that the writes below (microseconds apart) fall inside it even
            // on a machine so busy that this task is descheduled between two of them. The fast
            // path is off: this is about the settle window (FastPathTests covers the other).
            let configuration = WatchConfiguration(settleWindow: .milliseconds(250), completionGrace: nil)
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                for step in 1...20 {
                    try folder.write("card.yaml", "card: \(step)\n")
                    try folder.write("other-\(step % 3).yaml", "\(step)\n")
                }
                try await recorder.waitForValue([
                    "card.yaml": "card: 20\n", "other-0.yaml": "18\n", "other-1.yaml": "19\n", "other-2.yaml": "20\n",
                ])
                #expect(recorder.count == 2)
            }
        }

        @Test func aLoadErrorInsideTheWindowIsNotReported() async throws {
            // See aBurstIsPublishedOnce.
            let configuration = WatchConfiguration(settleWindow: .milliseconds(250), completionGrace: nil)
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                try folder.write("card.yaml", "card: BAD half-written\n")
                try folder.write("card.yaml", "card: 2\n")
                try await recorder.waitForValue(["card.yaml": "card: 2\n"])
                #expect(recorder.failures.isEmpty)
                #expect(recorder.count == 2)
            }
        }

        @Test func aWriterThatPausesBetweenTruncatingAndWritingIsWaitedFor() async throws {
            // An in-place save descheduled for longer than the settle window after its truncation
            // (a loaded machine does this): the empty file must not be published, the bytes that
            // follow must. 100 ms is five windows and half the cap.
            try await withWatchedFolder { folder, recorder in
                try await Self.writeInPlacePausing(folder, recorder, "card: 2\n")
            }
        }

        @Test func aPausedWritersHoldCountsFromItsWriteNotFromTheBurstsStart() async throws {
            // A burst already 150 ms old when the file is truncated (a hidden file touched every
            // 10 ms keeps it going): the cap counted from the burst's first event would end the
            // hold 50 ms into the writer's 100 ms pause and publish the empty file.
            try await withWatchedFolder { folder, recorder in
                let busyUntil = ContinuousClock.now + .milliseconds(150)
                while ContinuousClock.now < busyUntil {
                    try folder.write(".scratch", "x")
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await Self.writeInPlacePausing(folder, recorder, "card: 3\n")
            }
        }

        /// Truncates `card.yaml`, waits 100 ms, writes `text` and closes the file; then only
        /// `text` may have been published after the initial value, never the empty file.
        static func writeInPlacePausing(
            _ folder: TemporaryFolder, _ recorder: UpdateRecorder, _ text: String
        )
            async throws
        {
            let descriptor = open(folder.at("card.yaml"), O_WRONLY | O_TRUNC)
            try #require(descriptor >= 0)
            try await Task.sleep(for: .milliseconds(100))
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
            close(descriptor)
            try await recorder.waitForValue(["card.yaml": text])
            #expect(!recorder.all.contains { $0.value == ["card.yaml": ""] })
            #expect(recorder.count == 2)
        }

        @Test func aFinalBadFileIsReportedOnceAndTheGoodValueStays() async throws {
            try await withWatchedFolder { folder, recorder in
                try folder.write("card.yaml", "card: BAD\n")
                let error = try await recorder.waitForFailure()
                #expect("\(error)" == "card.yaml: error: contains BAD")
                // The last good value is still the latest value; nothing replaced it.
                #expect(recorder.latestValue == ["card.yaml": "card: 1\n"])

                let scans = recorder.watcher.statistics.scans
                try folder.saveAtomically("card.yaml", "card: BAD\n")
                try await recorder.waitForScan(after: scans)
                #expect(recorder.watcher.statistics.publishes == 2)  // same bad bytes: not reported again

                try folder.write("card.yaml", "card: BAD again\n")
                try await recorder.waitForCount(3)
                #expect(recorder.all.last?.error != nil)  // new bad content: reported

                try folder.write("card.yaml", "card: 1\n")  // back to the good bytes
                try await recorder.waitForValue(["card.yaml": "card: 1\n"])
                #expect(recorder.count == 4)
            }
        }

        @Test func aNeverEndingStreamOfWritesStillPublishes() async throws {
            // Capped at 5 windows of 10 ms: at least one publish every ~50 ms while writes go on.
            let configuration = WatchConfiguration(settleWindow: .milliseconds(10), maximumSettleWindows: 5)
            try await withWatchedFolder(configuration: configuration) { folder, recorder in
                let writingUntil = ContinuousClock.now + .milliseconds(400)
                var step = 0
                while ContinuousClock.now < writingUntil {
                    step += 1
                    try folder.write("card.yaml", "card: \(step)\n")
                    try await Task.sleep(for: .milliseconds(2))  // never 10 ms quiet: the burst never settles
                }
                let publishedWhileWriting = recorder.watcher.statistics.publishes - 1
                #expect(publishedWhileWriting >= 3)
                try await recorder.waitForValue(["card.yaml": "card: \(step)\n"])
            }
        }
    }
}
