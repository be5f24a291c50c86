import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// Slow clients (slowloris): connections that send half a request head and stall neither block
/// other clients nor stay open past the idle timeout; long-polls, which are answers in
/// progress, are not cut by it. A body trickled a byte at a time, which resets the idle clock
/// with every byte, is cut by the request deadline.
@Suite(.timeLimit(.minutes(1))) struct SlowClientTests {
    @Test func stalledConnectionsDoNotBlockOthersAndAreClosedByTheIdleTimeout() async throws {
        try await TestDaemon.with(configure: { $0.idleTimeout = .seconds(5) }) { server in
            let opened = ContinuousClock.now
            var stalled: [RawConnection] = []
            for index in 0..<50 {
                let connection = try RawConnection(port: server.port)
                switch index % 3 {
                case 0: break  // connects and sends nothing
                case 1: try await connection.send("GET /v1/spe")  // half a request line
                default:  // half the headers
                    try await connection.send("PUT /v1/specs/card.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz")
                }
                stalled.append(connection)
            }
            // Everyone else is served while every stalled connection is still open: had they
            // blocked the server, these would only be answered once the idle timeout closed them.
            for _ in 0..<20 {
                #expect(try await server.http.get("/v1/spec", timeout: .seconds(10)).status == 200)
            }
            let allOpen = stalled.allSatisfy { $0.isOpen }
            #expect(allOpen, "served after \(ContinuousClock.now - opened), with the stalled ones open")
            // Each stalled connection is closed once it has been idle for the timeout, not before.
            for connection in stalled {
                let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(15))
                #expect(closed)
                #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 4"), "\(text.prefix(100))")
            }
            let elapsed = ContinuousClock.now - opened
            #expect(elapsed >= .milliseconds(4900) && elapsed < .seconds(15), "closed after \(elapsed)")
        }
    }

    @Test func aLongPollOutlivesTheIdleTimeout() async throws {
        try await TestDaemon.with(configure: { $0.idleTimeout = .seconds(1) }) { server in
            // The tag is computed here, not fetched: a pooled connection left idle by a first
            // request could be closed by the idle timeout just as the long-poll is sent on it.
            let etag = BundleSnapshot(spec: try Spec(directory: server.folder.url)).etag.description
            let start = ContinuousClock.now
            let poll = try await server.http.get(
                "/v1/spec?wait=3s", headers: [("If-None-Match", etag)], timeout: .seconds(15))
            #expect(poll.status == 304)
            #expect(ContinuousClock.now - start >= .milliseconds(2500), "the long-poll was held, not cut at 1 s")
        }
    }

    @Test func aSlowlyTrickledHeadIsClosedToo() async throws {
        try await TestDaemon.with(configure: { $0.idleTimeout = .seconds(1) }) { server in
            let connection = try RawConnection(port: server.port)
            let start = ContinuousClock.now
            // One header byte every 200 ms never completes a head, so the idle clock never resets.
            var closedEarly = false
            for byte in "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8 {
                do {
                    try await connection.send(Data([byte]))
                } catch {
                    closedEarly = true  // the server closed it: what the test waits for
                    break
                }
                if ContinuousClock.now - start > .seconds(3) { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            let (_, closed) = try await connection.receiveUntilClosed(timeout: .seconds(3))
            #expect(closedEarly || closed)
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test func aTrickledBodyIsCutByTheRequestDeadline() async throws {
        // 600 ms of pauses inside a 2 s deadline: room for a loaded machine's late wake-ups.
        try await TestDaemon.with(configure: { $0.requestTimeout = .seconds(2) }) { server in
            let before = try await server.http.get("/v1/spec")
            let onDisk = try String(contentsOf: server.folder.url.appending(path: "card.yaml"), encoding: .utf8)
            let body = "specs:\n  card:\n    - { type: CornerRadius, radius: 3 }\n"
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "PUT /v1/specs/card.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestDaemon.token)\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n")
            let start = ContinuousClock.now
            // One byte every 100 ms, for 2 s: each byte restarts the 30 s idle clock, none the
            // request's 1 s deadline. The body is never finished.
            for byte in body.utf8.prefix(20) {
                do {
                    try await connection.send(Data([byte]))
                } catch {
                    break  // closed by the server: what the test waits for
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(5))
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
            #expect(text.contains("urn:livery:problem:request-timeout"))
            #expect(ContinuousClock.now - start < .seconds(5))
            // Nothing of the half push was written or published.
            #expect(try String(contentsOf: server.folder.url.appending(path: "card.yaml"), encoding: .utf8) == onDisk)
            #expect(try await server.http.get("/v1/spec").header("ETag") == before.header("ETag"))
        }
    }

    @Test func aBodyThatArrivesInTimeEndsTheDeadline() async throws {
        // 600 ms of pauses inside a 2 s deadline: room for a loaded machine's late wake-ups.
        try await TestDaemon.with(configure: { $0.requestTimeout = .seconds(2) }) { server in
            let body = "specs:\n  card:\n    - { type: CornerRadius, radius: 3 }\n"
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "PUT /v1/specs/card.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestDaemon.token)\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n")
            try await Task.sleep(for: .milliseconds(300))
            try await connection.send(String(body.prefix(10)))
            try await Task.sleep(for: .milliseconds(300))
            try await connection.send(String(body.dropFirst(10)))
            let pushed = try await connection.receive(until: "\r\n\r\n", timeout: .seconds(5))
            #expect(pushed.hasPrefix("HTTP/1.1 2"), "\(pushed)")
            // Well past the first request's deadline, the connection still serves the next one.
            try await Task.sleep(for: .milliseconds(2500))
            // The rest of the push's answer.
            _ = try await connection.receive(until: "\u{0}", timeout: .milliseconds(50))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let next = try await connection.receive(until: #""status":"ok""#, timeout: .seconds(5))
            #expect(next.hasPrefix("HTTP/1.1 200"), "\(next)")
        }
    }
}
