import Foundation
import LiveryServer
import Testing

/// Request line and header limits, tested with a raw socket: 414 and 431 with a problem
/// document up to 4× the limits (the connection stays usable), and beyond that the parser gives
/// up: 400 and the connection closes, so a client cannot make the daemon buffer an unbounded head.
@Suite(.timeLimit(.minutes(1))) struct RequestHeadLimitTests {
    @Test func aLongRequestTargetIs414() async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "GET /v1/spec?pad=\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let reply = try await connection.receive(until: "uri-too-long\"}", timeout: .seconds(5))
            #expect(reply.hasPrefix("HTTP/1.1 414 URI Too Long\r\n"), "\(reply.prefix(200))")
            #expect(reply.lowercased().contains("content-type: application/problem+json"))
            #expect(reply.contains(#""detail":"the request target is 9013 bytes; the limit is 8192 bytes""#))
            // The head was read whole, so the same connection serves the next request.
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await connection.receive(until: "\r\n", timeout: .seconds(5)).contains("200 OK"))
            // Just under the limit is an ordinary request.
            let fine = try await server.http.get("/v1/spec?pad=\(String(repeating: "a", count: 8000))")
            #expect(fine.status == 200)
        }
    }

    @Test func largeHeadersAre431() async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            let fields = (0..<20).map { "X-Pad-\($0): \(String(repeating: "b", count: 1000))\r\n" }.joined()
            try await connection.send("GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n")
            let reply = try await connection.receive(until: "headers-too-large\"}", timeout: .seconds(5))
            #expect(reply.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(reply.prefix(200))")
            #expect(reply.contains(#""detail":"the header fields are 20230 bytes; the limit is 16384 bytes""#))
        }
    }

    @Test(arguments: ["target", "header"])
    func anAbsurdHeadIsCutOffWith400AndAClose(_ part: String) async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            let huge = String(repeating: "c", count: 100_000)  // over the parser's 64 KiB ceiling
            let head =
                part == "target"
                ? "GET /v1/spec?pad=\(huge) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                : "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: \(huge)\r\n\r\n"
            // The server may close before it has read everything; a failed send is part of the answer.
            do { try await connection.send(head) } catch {}
            let (reply, closed) = try await connection.receiveUntilClosed(timeout: .seconds(5))
            #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 400 "), "\(reply.prefix(200))")
            #expect(closed, "the connection is closed")
            #expect(try await server.http.get("/healthz").status == 200, "the daemon is fine")
        }
    }
}
