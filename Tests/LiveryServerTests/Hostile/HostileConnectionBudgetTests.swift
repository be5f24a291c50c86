import Foundation
import LiveryTestSupport
import LiveryTesting
import Testing

/// More event streams than the daemon has descriptors for, from one host, under the soft file
/// limit a systemd service gets (1,024, here also the hard one, so the daemon cannot raise it):
/// the streams beyond its held-request budget are refused with 503 (or their connections
/// closed), and `/healthz`, `/readyz` and a push are still served, the push reaching the
/// streams that were admitted.
@Suite(.heavy, .serialized, .timeLimit(.minutes(5))) struct HostileConnectionBudgetTests {
    static let fileLimit = 1024
    static let streams = 1200

    @Test func twelveHundredEventStreamsUnderAFileLimitOf1024LeaveRoomForProbesAndPushes() async throws {
        try Self.raiseOwnFileLimit(to: Self.streams + 256)
        // The per-peer limits as high as the global ones: what is tested here is the global
        // budget against the file limit (all 1,200 streams come from 127.0.0.1).
        let serve = try await ServeProcess(
            ["--max-connections-per-peer", "8192", "--max-held-requests-per-peer", "4096"], fileLimit: Self.fileLimit)
        #expect(serve.child.stderr.contains("open-file limit"), "\(serve.child.stderr)")
        #expect(serve.child.stderr.contains("hard=\(Self.fileLimit)"), "\(serve.child.stderr)")
        #expect(try await serve.http.get("/v1/spec").status == 200)

        var connections: [RawConnection] = []
        for _ in 0..<Self.streams {
            let connection = try RawConnection(port: serve.port)
            // A refused connection may be closed before the request is sent: that is a refusal too.
            _ = try? connection.sendAvailable(Data("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            connections.append(connection)
        }
        var admitted: [RawConnection] = []
        var refused = 0
        var closed = 0
        for connection in connections {
            let head = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10))
            if head.hasPrefix("HTTP/1.1 200") {
                admitted.append(connection)
            } else if head.hasPrefix("HTTP/1.1 503") {
                #expect(head.lowercased().contains("retry-after: "), "\(head)")
                refused += 1
            } else if head.isEmpty {
                closed += 1
            } else {
                Issue.record("unexpected answer to an event stream: \(head.prefix(200))")
            }
        }
        // The held requests stop short of the descriptors: 64 kept for the daemon's files,
        // 64 connections for everything but held requests.
        #expect(!admitted.isEmpty && admitted.count <= Self.fileLimit - 128, "\(admitted.count) streams admitted")
        #expect(refused + closed == Self.streams - admitted.count, "\(refused) refused, \(closed) closed")
        #expect(refused > 0, "none answered 503")

        // While every admitted stream stays open, the daemon still serves probes and pushes.
        let start = ContinuousClock.now
        #expect(try await serve.http.get("/healthz", timeout: .seconds(5)).status == 200)
        #expect(try await serve.http.get("/readyz", timeout: .seconds(5)).status == 200)
        #expect(ContinuousClock.now - start < .seconds(3))
        let pushed = try await serve.http.put(
            "/v1/specs/extra.yaml", "specs:\n  extra:\n    - { type: CornerRadius, radius: 3 }\n")
        #expect(pushed.status == 201, "\(pushed.text)")
        let stream = try #require(admitted.last)
        let events = try await stream.receive(until: "extra", timeout: .seconds(10))
        #expect(events.contains("event: spec") && events.contains("extra"), "\(events.suffix(300))")

        // Once the streams end, their budget comes back: a new stream is admitted.
        connections.removeAll()
        admitted.removeAll()
        let admittedAgain = try await TestDaemon.eventually(timeout: .seconds(10)) {
            let again = try RawConnection(port: serve.port)
            try await again.send("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return try await again.receive(until: "\r\n\r\n", timeout: .seconds(5)).hasPrefix("HTTP/1.1 200")
        }
        #expect(admittedAgain)
        #expect(try await serve.stop() == 0, "\(serve.child.stderr.suffix(2000))")
    }

    @Test func thePerPeerLimitsHoldOnePeerAndNotTheOthers() async throws {
        let serve = try await ServeProcess(["--max-held-requests-per-peer", "5", "--max-connections-per-peer", "8"])
        let request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        var held: [RawConnection] = []
        for index in 0..<6 {
            let connection = try RawConnection(port: serve.port)
            try await connection.send(request)
            let head = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10))
            if index < 5 {
                #expect(head.hasPrefix("HTTP/1.1 200"), "stream \(index): \(head)")
                held.append(connection)
            } else {
                #expect(head.hasPrefix("HTTP/1.1 503") && head.lowercased().contains("retry-after: 5"), "\(head)")
            }
        }
        // Short requests still have connections from the same peer; another peer streams.
        #expect(try await serve.http.get("/healthz").status == 200)
        let other = try RawConnection(port: serve.port, from: "127.0.0.2")
        try await other.send(request)
        #expect(try await other.receive(until: "\r\n\r\n", timeout: .seconds(10)).hasPrefix("HTTP/1.1 200"))
        // Beyond the connections per peer, a new connection from that peer is closed unanswered.
        var extra: [RawConnection] = []
        for _ in 0..<4 { extra.append(try RawConnection(port: serve.port)) }
        var closedUnanswered = 0
        for connection in extra {
            _ = try? connection.sendAvailable(Data("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            if try await connection.receive(until: "\r\n\r\n", timeout: .seconds(5)).isEmpty { closedUnanswered += 1 }
        }
        #expect(closedUnanswered >= 1, "8 connections per peer: 5 streams, 3 more at most")
        withExtendedLifetime(held) {}
        #expect(try await serve.stop() == 0)
    }

    /// Started without options, the daemon holds one address to 256 held requests (and 512
    /// connections): the 257th event stream from 127.0.0.1 is refused, while that address still
    /// gets its short requests answered and another address its streams.
    @Test func byDefaultOneAddressHoldsAtMost256Requests() async throws {
        try Self.raiseOwnFileLimit(to: 512)
        let serve = try await ServeProcess()
        let request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        var held: [RawConnection] = []
        for _ in 0..<256 {
            let connection = try RawConnection(port: serve.port)
            try await connection.send(request)
            held.append(connection)
        }
        for (index, connection) in held.enumerated() {
            let head = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(10))
            #expect(head.hasPrefix("HTTP/1.1 200"), "stream \(index): \(head.prefix(200))")
        }
        let extra = try RawConnection(port: serve.port)
        try await extra.send(request)
        let refused = try await extra.receive(until: "\r\n\r\n", timeout: .seconds(10))
        #expect(refused.hasPrefix("HTTP/1.1 503") && refused.lowercased().contains("retry-after: 5"), "\(refused)")
        #expect(try await serve.http.get("/healthz").status == 200)
        let other = try RawConnection(port: serve.port, from: "127.0.0.2")
        try await other.send(request)
        #expect(try await other.receive(until: "\r\n\r\n", timeout: .seconds(10)).hasPrefix("HTTP/1.1 200"))
        withExtendedLifetime(held) {}
        #expect(try await serve.stop() == 0)
    }

    /// This test process opens more connections than a default soft limit allows.
    static func raiseOwnFileLimit(to wanted: Int) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw HTTPTestError("getrlimit") }
        guard limit.rlim_cur < rlim_t(wanted) else { return }
        guard limit.rlim_max >= rlim_t(wanted) else {
            throw HTTPTestError("the test needs \(wanted) descriptors; the hard limit is \(limit.rlim_max)")
        }
        limit.rlim_cur = rlim_t(wanted)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw HTTPTestError("setrlimit") }
    }
}
