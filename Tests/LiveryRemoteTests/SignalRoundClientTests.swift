import Foundation
import Livery
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryRemote

/// The version signal's rounds as the real client follows them: each wait that ends without a
/// change sends back the round its 304 named, at once.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct SignalRoundClientTests {
    @Test("after a 304 the next wait asks for the round it named")
    @MainActor func eachWaitAsksForTheNamedRound() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-rounds")
        try folder.write("box.yaml", "specs:\n  box: [{ type: CornerRadius, radius: 4 }]\n")
        let daemon = try await RunningDaemon.start(folder: folder)
        let proxy = try await RecordingProxy.start(upstream: daemon.url)
        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "box")
        let follow = Task { await provider.follow(url: proxy.url, mode: .version(wait: .seconds(1))) }
        try await eventually { box.cornerRadius == 4 }
        try await eventually { proxy.seen.filter { $0.status == 304 }.count >= 3 }
        follow.cancel()
        await follow.value
        try await proxy.stop()
        await daemon.stop()

        let signals = proxy.seen.filter { $0.path == "/v1/version" }
        let ended = signals.enumerated().filter { $0.element.status == 304 }
        #expect(ended.count >= 3)
        for (index, answer) in ended where index + 1 < signals.count {
            let round = try #require(answer.round, "a 304 after a wait names the next round")
            #expect(signals[index + 1].query?.contains("round=\(round)") == true, "\(signals[index + 1])")
        }
    }
}
