import AsyncHTTPClient
import Foundation
import Livery
import LiveryRemote
import LiveryTestSupport
import LiveryTesting
import NIOCore
import NIOHTTP1
import Testing

/// A program following the real daemon (`provider.follow(url:)`) applies what Tokens Studio for
/// Figma pushes to `/v1/tokens-studio`, as its Generic Versioned Storage sends it.
@Suite(.timeLimit(.minutes(1)), .inotifyShared)
struct TokensStudioFollowTests {
    /// A push as the plugin's `write()` builds it, in its "W3C DTCG" token format.
    static func push(brand: String) -> String {
        """
        {"version":"2.10.0","updatedAt":"2026-11-26T20:00:00.000Z","values":{\
        "core":{"palette":{"$type":"color","brand":{"$value":"\(brand)"},"ink":{"$value":"#1c1c1e"}}},\
        "light":{"color":{"$type":"color","background":{"$value":"{palette.brand}"}}},\
        "dark":{"color":{"$type":"color","background":{"$value":"{palette.ink}"}}}},\
        "$themes":[\
        {"id":"l","name":"light","selectedTokenSets":{"core":"source","light":"enabled"}},\
        {"id":"d","name":"dark","selectedTokenSets":{"core":"source","dark":"enabled"}}]}
        """
    }

    static func send(_ method: HTTPMethod, _ url: URL, _ body: String) async throws -> Int {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer test-token-0123456789abcdef")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test @MainActor func aFollowingProgramAppliesEachPush() async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-remote")
        try folder.write("box.yaml", "specs:\n  box: []\n")
        let running = try await RunningDaemon.start(folder: folder)
        let studio = running.url.appending(path: "v1/tokens-studio")
        #expect(try await Self.send(.PUT, studio, Self.push(brand: "#ff0000")) == 200)
        let card = "specs:\n  card:\n    - { type: BackgroundColor, color: \"@color.background\" }\n"
        #expect(try await Self.send(.PUT, running.url.appending(path: "v1/specs/card.yaml"), card) == 201)

        let provider = TraitsProvider()
        let box = StyledBox()
        provider.register(box, as: "card")
        let following = Task { await provider.follow(url: running.url) }
        try await eventually { box.backgroundColor == Color(hex: "#FF0000") }
        #expect(provider.spec?.themes == ["light", "dark"])
        try provider.setTheme("dark")
        #expect(box.backgroundColor == Color(hex: "#1C1C1E"))
        try provider.setTheme(nil)

        #expect(try await Self.send(.PUT, studio, Self.push(brand: "#00ff00")) == 200)
        try await eventually { box.backgroundColor == Color(hex: "#00FF00") }
        following.cancel()
        await following.value
        await running.stop()
    }
}
