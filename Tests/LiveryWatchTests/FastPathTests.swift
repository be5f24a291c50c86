import Foundation
@testable import LiveryWatch
import Testing

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
