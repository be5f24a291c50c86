import Foundation
import LiveryTesting
import Synchronization
import Testing

@testable import LiveryServer

/// OpenFeature evaluations under the hostile-client limits: each address's bucket
/// (`--max-evaluations-per-peer`), kept on a clock the test moves, so no test waits.
@Suite(.timeLimit(.minutes(1))) struct OFREPRateTests {
    /// A continuous clock that stands still until the test moves it.
    final class StoppedClock: Sendable {
        private let origin = ContinuousClock.now
        private let offset = Mutex(Duration.zero)

        var now: ContinuousClock.Instant { origin + offset.withLock { $0 } }

        func advance(by duration: Duration) { offset.withLock { $0 += duration } }
    }

    @Test func aBucketHoldsOneSecondsWorthPerAddressAndFillsAtThatRate() {
        let clock = StoppedClock()
        let rate = EvaluationRate(perSecond: 4, now: { clock.now })
        #expect((0..<4).allSatisfy { _ in rate.take("a") })
        #expect(!rate.take("a"))
        #expect(rate.take("b"), "another address has its own bucket")
        clock.advance(by: .milliseconds(500))
        #expect(rate.take("a") && rate.take("a") && !rate.take("a"), "half a second fills half of it")
        clock.advance(by: .seconds(60))
        #expect((0..<4).allSatisfy { _ in rate.take("a") } && !rate.take("a"), "never more than a second's worth")
    }

    @Test func fullBucketsAreDroppedSoManyAddressesDoNotGrowTheTable() {
        let clock = StoppedClock()
        let rate = EvaluationRate(perSecond: 1, now: { clock.now })
        for index in 0..<1024 { #expect(rate.take("old-\(index)")) }
        clock.advance(by: .seconds(1))
        for index in 0..<1024 { #expect(rate.take("new-\(index)")) }
        #expect(rate.trackedPeers == 1024, "the old addresses' buckets are full again: dropped")
        #expect(!rate.take("new-0"))
    }

    static func daemon(clock: StoppedClock, _ body: (TestDaemon) async throws -> Void) async throws {
        let folder = try TemporarySpecFolder(prefix: "livery-ofrep-rate")
        try folder.write("look.yaml", OFREPEndpointTests.look)
        try await TestDaemon.with(
            folder: folder,
            configure: {
                $0.maxEvaluationsPerPeer = 2
                $0.evaluationClock = { clock.now }
            }
        ) { try await body($0) }
    }

    /// One address past its rate gets OFREP's 429 with `Retry-After`, single and bulk alike,
    /// and still everything else; another address is served; a second later the first is too.
    @Test func aFloodFromOneAddressGets429WhileAnotherIsServed() async throws {
        let clock = StoppedClock()
        try await Self.daemon(clock: clock) { server in
            #expect(try await OFREPEndpointTests.evaluate(server, "colors.accent").status == 200)
            #expect(try await OFREPEndpointTests.evaluate(server, "card.title:retries").status == 200)
            let refused = try await OFREPEndpointTests.evaluate(server, "colors.accent")
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "1")
            #expect(try refused.json()["type"] as? String == "urn:livery:problem:too-many-evaluations")
            let bulk = try await server.http.post("/ofrep/v1/evaluate/flags", json: "{}", token: .some(nil))
            #expect(bulk.status == 429 && bulk.header("Retry-After") == "1")
            #expect(try await server.http.get("/v1/spec").status == 200, "only evaluations are counted")

            let other = try RawConnection(port: server.port, from: "127.0.0.2")
            let body = #"{"context": {}}"#
            try await other.send(
                "POST /ofrep/v1/evaluate/flags/colors.accent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            let answer = try RawResponse(try await other.receiveUntilClosed(timeout: .seconds(10)).text)
            #expect(answer.status == 200, "another address has its own bucket")

            clock.advance(by: .seconds(1))
            #expect(try await OFREPEndpointTests.evaluate(server, "colors.accent").status == 200)
        }
    }

    /// The official Python provider (openfeature-provider-ofrep 0.3.0) takes the 429 as the
    /// protocol means it: the evaluation resolves to the caller's default with `GENERAL`, and the
    /// provider sends no evaluation until `Retry-After` has passed (on its own clock).
    @Test func theOfficialProviderPausesUntilRetryAfter() async throws {
        let clock = StoppedClock()
        try await Self.daemon(clock: clock) { server in
            let requests = (0..<4).map { _ in
                OFREPProviderTests.Request(type: "string", key: "colors.accent", default: .string("none"))
            }
            let details = try await OFREPProviderTests.evaluate(server.base, requests)
            try #require(details.count == 4)
            #expect(details[0]["value"] as? String == "#0A84FF" && details[1]["value"] as? String == "#0A84FF")
            #expect(details[2]["value"] as? String == "none" && details[2]["errorCode"] as? String == "GENERAL")
            #expect(details[2]["errorMessage"] as? String == "Rate limited, retry after: 1")
            // Had the provider sent it, the daemon (its clock stopped) would have refused it the
            // same way; the provider refuses it itself, naming the pause.
            #expect(details[3]["value"] as? String == "none" && details[3]["errorCode"] as? String == "GENERAL")
            let paused = try #require(details[3]["errorMessage"] as? String)
            #expect(paused.hasPrefix("OFREP evaluation paused due to TooManyRequests until "), "\(paused)")
        }
    }
}
