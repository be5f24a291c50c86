import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

@testable import LiveryServer

/// A client that pipelines requests and never reads the answers, on each of the daemon's three
/// request paths: the raw one (a plain `GET /v1/spec`), the event-loop one (`?wait=0s` takes it
/// past the raw reader), and the router's (`/v1/status`). The daemon must stop reading such a
/// connection, so its memory stays flat, and keep answering everyone else.
@Suite(.heavy, .serialized, .timeLimit(.minutes(5))) struct HostilePipeliningTests {
    /// How long the flood lasts, and on how many connections (as in the report that found it).
    static let flood: Duration = .seconds(6)
    static let connections = 4
    /// Growth of the daemon's resident memory allowed during the flood. What a flooded
    /// connection may hold is what it had read when its answers stopped draining (at most a
    /// few reads of 64 KiB) and 64 queued parts; the rest is allocator noise.
    static let growthLimit = 24 * 1024 * 1024
    /// The slowest `/healthz` answer allowed during the flood and as the flooders hang up, on a
    /// loaded machine with a debug build. nginx (two workers, a 4 KiB file for `/v1/spec`), flooded the same way on the same
    /// machine at a load of 15, answered within 80 ms: it reads a little of each connection in
    /// turn. Here each connection gets one read of 1 KiB per turn of its event loop.
    static let healthLimit: Duration = .seconds(1)

    @Test(arguments: [
        ("raw path", "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("event-loop path", "GET /v1/spec?wait=0s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("router", "GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    ])
    func aPipeliningFloodThatReadsNothingHoldsNoMemoryAndBlocksNobody(path: String, request: String) async throws {
        var slowest = try await Self.measureFlood(path: path, request: request)
        // One slow answer can be the machine's: other tests run beside this one on two cores. A
        // daemon that lets the flood starve `/healthz` is slow in a second flood too.
        if slowest >= Self.healthLimit {
            print("\(path): /healthz took \(slowest) during the flood or after it; flooding again")
            slowest = try await Self.measureFlood(path: path, request: request)
        }
        #expect(slowest < Self.healthLimit, "\(path): /healthz took \(slowest) during the flood or after it")
    }

    /// Floods a new daemon for ``flood``, checks its memory, and returns the slowest `/healthz`.
    private static func measureFlood(path: String, request: String) async throws -> Duration {
        let serve = try await ServeProcess()
        #expect(try await serve.http.get("/v1/spec").status == 200)
        let before = try serve.residentBytes
        let block = Data(String(repeating: request, count: 65536 / request.utf8.count).utf8)
        let end = ContinuousClock.now + Self.flood
        let port = serve.port
        // The flooders, round robin in one task: each sends as much as the daemon takes.
        let flood = Task {
            let flooders = try (0..<Self.connections).map { _ in try RawConnection(port: port) }
            var total = 0
            while ContinuousClock.now < end {
                var taken = 0
                for flooder in flooders { taken += try flooder.sendAvailable(block) }
                total += taken
                if taken == 0 { try await Task.sleep(for: .milliseconds(2)) }
            }
            return total
        }
        var slowest = Duration.zero
        var peak = before
        while ContinuousClock.now < end {
            let start = ContinuousClock.now
            let health = try? await serve.http.get("/healthz", timeout: .seconds(5))
            slowest = max(slowest, health?.status == 200 ? ContinuousClock.now - start : .seconds(5))
            peak = max(peak, try serve.residentBytes)
            try await Task.sleep(for: .milliseconds(200))
        }
        // The flooders hang up as their task ends, megabytes of requests unread behind them,
        // which the daemon reads once they are gone: it must not parse them.
        let bytes = try await flood.value
        for _ in 0..<5 {
            let start = ContinuousClock.now
            let health = try? await serve.http.get("/healthz", timeout: .seconds(5))
            slowest = max(slowest, health?.status == 200 ? ContinuousClock.now - start : .seconds(5))
            try await Task.sleep(for: .milliseconds(100))
        }
        peak = max(peak, try serve.residentBytes)
        #expect(
            peak - before < Self.growthLimit,
            "\(path): VmRSS grew \((peak - before) / 1024) KiB, from \(before / 1024) KiB, while \(bytes / 1024) KiB were pipelined"
        )
        #expect(try await serve.stop() == 0, "\(serve.child.stderr)")
        return slowest
    }

    /// The raw path's pacing, seen from the client: once the socket buffers between a client
    /// that reads no answers and the daemon are full, the daemon reads nothing more from it. (The
    /// flood above bounds what a daemon that read on would hold only by the flood's length.)
    @Test func aConnectionWhoseAnswersAreNotReadIsReadNoMore() async throws {
        let serve = try await ServeProcess()
        #expect(try await serve.http.get("/v1/spec").status == 200)
        // 64 bytes, so that the daemon's reads of 1 KiB hold whole requests: a read that ends
        // inside one hands the connection to the parser, whose pacing is the router's.
        let request = "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nX: 01234567890123456\r\n\r\n"
        #expect(request.utf8.count == 64 && DaemonHTTPChannel.readBytes % 64 == 0)
        let block = Data(String(repeating: request, count: 65536 / request.utf8.count).utf8)
        // The client hangs up at the end of this block, so that the daemon can stop.
        do {
            let client = try RawConnection(port: serve.port)
            // Until the buffers are full: three seconds in which the daemon takes nothing (a debug
            // build on a loaded machine may fall a second behind its client).
            var lastTaken = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now - lastTaken < .seconds(3), ContinuousClock.now < deadline {
                if try client.sendAvailable(block) > 0 { lastTaken = .now }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(ContinuousClock.now - lastTaken >= .seconds(3), "the daemon read on for 30 s")
            var taken = 0
            let end = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < end {
                taken += try client.sendAvailable(block)
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(taken == 0, "the daemon took \(taken) more bytes from a client that reads nothing")
        }
        #expect(try await serve.stop() == 0, "\(serve.child.stderr)")
    }
}
