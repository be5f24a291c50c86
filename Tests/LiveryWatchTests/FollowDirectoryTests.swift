import Foundation
import LiveryTestSupport
import LiveryTesting
import LiveryWatch
import Testing

/// `provider.follow(directory:)`: real files, real inotify, the provider restyling targets.
@Suite(.timeLimit(.minutes(1)), .inotifyShared) struct FollowDirectoryTests {
    typealias Outcome = Result<LoadReport, any Error>

    @MainActor @Test func appliesEditsKeepsTheLastGoodAndStopsOnCancel() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("card.yaml", "specs: { card: [{ type: BackgroundColor, color: '#111111' }] }")
        let provider = TraitsProvider()
        let card = StyledBox()
        provider.register(card, as: "card")
        let (outcomes, sink) = AsyncStream.makeStream(of: Outcome.self)
        let following = Task { await provider.follow(directory: folder.url) { sink.yield($0) } }
        var iterator = outcomes.makeAsyncIterator()

        let first = try #require(await iterator.next())
        #expect(try first.get().changedIdentifiers == ["card"])
        #expect(card.backgroundColor == Color(hex: "#111111"))

        try folder.atomicSave("card.yaml", "specs: { card: [{ type: BackgroundColor, color: '#222222' }] }")
        let second = try #require(await iterator.next())
        #expect(try second.get().targetsTouched == 1)
        #expect(card.backgroundColor == Color(hex: "#222222"))

        try folder.write("card.yaml", "specs: { card: [{ type: BackgroundColor, color: '#22' }] }")
        let third = try #require(await iterator.next())
        guard case .failure(let error) = third else {
            Issue.record("expected the bad file to be rejected, got \(third)")
            return
        }
        #expect(
            "\(error)"
                == "card.yaml:1:49: error: 'color' of trait BackgroundColor: invalid colour '#22': expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"
        )
        #expect(card.backgroundColor == Color(hex: "#222222"))

        following.cancel()
        let clock = ContinuousClock()
        let stopped = await clock.measure { await following.value }
        #expect(stopped < .milliseconds(500))
    }

    actor Styler {
        let provider = TraitsProvider()
        let card = StyledBox()

        init() { provider.register(card, as: "card") }

        func follow(_ folder: URL, _ sink: AsyncStream<Outcome>.Continuation) async {
            await provider.follow(directory: folder) { sink.yield($0) }
        }

        var cornerRadius: Double { card.cornerRadius }
    }

    @Test func worksFromAnyActor() async throws {
        let folder = try TemporarySpecFolder()
        try folder.write("card.json", #"{"specs": {"card": [{"type": "CornerRadius", "radius": 7}]}}"#)
        let styler = Styler()
        let (outcomes, sink) = AsyncStream.makeStream(of: Outcome.self)
        let following = Task { await styler.follow(folder.url, sink) }
        var iterator = outcomes.makeAsyncIterator()
        let first = try #require(await iterator.next())
        _ = try first.get()
        #expect(await styler.cornerRadius == 7)
        following.cancel()
        await following.value
    }
}
