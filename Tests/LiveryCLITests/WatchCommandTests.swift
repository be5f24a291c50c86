import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// `livery watch` as a spec author runs it: a real process, real edits, real inotify.
@Suite(.timeLimit(.minutes(1))) struct WatchCommandTests {
    @Test func printsEachReloadAndEachErrorThenStopsOnInterrupt() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("specs/card.yaml", "specs: { card: [{ type: CornerRadius, radius: 1 }], title: [] }")
        let livery = LiveryProcess(["watch", "specs"], in: folder.url)
        var lines = livery.lines.makeAsyncIterator()
        try await livery.start()
        defer { livery.stop() }

        #expect(try await lines.next() == "watching specs (Ctrl-C to stop)")
        let first = try #require(try await lines.next())
        #expect(first.hasSuffix("(1 file, 2 identifiers): 2 changed: card, title"))

        try folder.atomicSave("specs/card.yaml", "specs: { card: [{ type: CornerRadius, radius: 2 }], title: [] }")
        let second = try #require(try await lines.next())
        #expect(second.hasSuffix("(1 file, 2 identifiers): 1 changed: card"))

        try folder.write("specs/card.yaml", "specs: { card: [{ type: CornerRadius, radius: -2 }], title: [] }")
        #expect(
            try await lines.next()
                == "specs/card.yaml:1:47: error: 'radius' of trait CornerRadius: -2.0 must be at least 0")

        livery.stop()
        await livery.process.waitUntilExit()
        #expect(livery.process.terminationReason == .uncaughtSignal || livery.process.terminationStatus == 0)
    }
}
