import Foundation
import Livery
import LiveryServer
import LiveryTesting
import Testing

/// `GET /v1/spec` is answered ahead of the router: plain GETs from the raw bytes
/// (RawBundleHandler), long-polls and the rest on the event loop (BundleRequestHandler). These
/// check what that must not change: answers in request order on a pipelined connection, the
/// idle timeout and `Connection: close`, the headers, the metrics.
@Suite(.timeLimit(.minutes(1))) struct BundlePathsTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await TestDaemon.with { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            let connection = try RawConnection(port: server.port)
            // Router, event-loop path, router, event-loop path (304), router: sent in one write.
            try await connection.send(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/specs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(10))
            #expect(closed)
            let answers = Self.split(text)
            try #require(answers.count == 5, "\(text)")
            #expect(answers.map(\.status) == [200, 200, 200, 304, 200])
            #expect(answers[0].text.contains(#""status":"ok""#))
            #expect(answers[1].text.contains(#""specs""#) && answers[1].text.contains("ETag: \(etag)"))
            #expect(answers[2].text.contains("card.yaml"))
            #expect(answers[4].text.contains(#""status":"ok""#))
        }
    }

    @Test func rawAnswersComeBeforeTheRequestsPipelinedBehindThem() async throws {
        try await TestDaemon.with { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            let connection = try RawConnection(port: server.port)
            // Raw, raw (304), router, then the event-loop path: the connection stays
            // with the parser once it has had a request of another kind.
            try await connection.send(
                "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: W/\(etag), \"other\"\r\n\r\n"
                    + "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(10))
            #expect(closed)
            let answers = Self.split(text)
            try #require(answers.count == 5, "\(text)")
            #expect(answers.map(\.status) == [200, 304, 200, 304, 200])
            #expect(answers[0].text.contains(#""specs""#))
            #expect(answers[2].text.contains(#""status":"ok""#))
            #expect(answers[4].text.contains(#""specs""#))
        }
    }

    @Test func aRawAnswerWithConnectionCloseClosesAndSaysSo() async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send("GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(10))
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("\r\nConnection: close\r\n"), "\(text)")
            #expect(text.hasSuffix("}"))
        }
    }

    @Test func aRequestPipelinedBehindALongPollWaitsForItsAnswer() async throws {
        try await TestDaemon.with { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            let connection = try RawConnection(port: server.port)
            let start = ContinuousClock.now
            try await connection.send(
                "GET /v1/spec?wait=1s HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let early = try await connection.receive(until: "HTTP/1.1", timeout: .milliseconds(600))
            #expect(early.isEmpty, "nothing may be answered while the long-poll waits: \(early)")
            let text = try await connection.receive(until: #""status":"ok""#, timeout: .seconds(5))
            let answers = Self.split(text)
            #expect(answers.map(\.status) == [304, 200], "\(text)")
            #expect(ContinuousClock.now - start >= .milliseconds(850))
        }
    }

    /// The event-loop handler holds a long-poll that arrives behind a request the router is
    /// answering until that answer is out, then waits it out itself.
    @Test func aLongPollPipelinedBehindARoutedRequestWaitsItsTurnAndItsTime() async throws {
        try await TestDaemon.with { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            let connection = try RawConnection(port: server.port)
            let start = ContinuousClock.now
            try await connection.send(
                "GET /v1/specs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /v1/spec?wait=1s HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\nConnection: close\r\n\r\n"
            )
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(5))
            #expect(closed)
            let answers = Self.split(text)
            #expect(answers.map(\.status) == [200, 304], "\(text)")
            #expect(ContinuousClock.now - start >= .milliseconds(850))
        }
    }

    @Test func requestsAnsweredOnTheFastPathKeepTheConnectionAlive() async throws {
        try await TestDaemon.with(configure: { $0.idleTimeout = .seconds(2) }) { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            // A request every 300 ms for 3.6 s: never idle for 2 s, so never closed, though none
            // of these requests reaches the router. A parallel run can keep this task from running
            // for seconds (two cores, other tests busy on the cooperative pool): a client that
            // really was idle for 1.5 s or more between two requests makes the round void, and it
            // is run again on a new connection (at most three rounds).
            for round in 1...3 {
                let connection = try RawConnection(port: server.port)
                var answers: [String] = []
                var longestGap = Duration.zero
                var lastSent = ContinuousClock.now
                do {
                    for _ in 0..<12 {
                        longestGap = max(longestGap, ContinuousClock.now - lastSent)
                        lastSent = .now
                        try await connection.send(
                            "GET /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(etag)\r\n\r\n")
                        answers.append(try await connection.receive(until: "\r\n\r\n", timeout: .seconds(5)))
                        try await Task.sleep(for: .milliseconds(300))
                    }
                } catch  where longestGap >= .milliseconds(1500) && round < 3 {
                    continue
                }
                if longestGap >= .milliseconds(1500) && round < 3 { continue }
                #expect(answers.count == 12 && answers.allSatisfy { $0.hasPrefix("HTTP/1.1 304") }, "\(answers)")
                #expect(connection.isOpen)
                // Then idle: closed after the timeout.
                let (_, closed) = try await connection.receiveUntilClosed(timeout: .seconds(5))
                #expect(closed)
                return
            }
        }
    }

    @Test func answersCarryTheBundleHeadersAndADate() async throws {
        try await TestDaemon.with { server in
            let full = try await server.http.get("/v1/spec")
            #expect(full.status == 200)
            #expect(full.header("Content-Type") == "application/json")
            #expect(full.header("Cache-Control") == "no-cache")
            #expect(full.header("Content-Length") == String(full.body.count))
            let etag = try #require(full.header("ETag"))
            let notModified = try await server.http.get("/v1/spec", headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304)
            #expect(notModified.header("ETag") == etag)
            #expect(notModified.header("Cache-Control") == "no-cache")
            for reply in [full, notModified] {
                let date = try #require(reply.header("Date"))
                let parsed = try #require(Self.imfFixdate.date(from: date), "\(date)")
                #expect(abs(parsed.timeIntervalSinceNow) < 5)
            }
        }
    }

    @Test func answersOnTheFastPathAreCounted() async throws {
        try await TestDaemon.with { server in
            let etag = try await server.http.get("/v1/spec").header("ETag") ?? ""
            for _ in 0..<3 { _ = try await server.http.get("/v1/spec", headers: [("If-None-Match", etag)]) }
            let metrics = try await server.http.get("/metrics").text
            let line = metrics.split(separator: "\n").first {
                $0.hasPrefix("livery_http_requests_total{") && $0.contains(#"route="/v1/spec""#)
                    && $0.contains(#"status="304""#)
            }
            #expect(line.map { $0.hasSuffix(" 3") } == true, "\(metrics)")
        }
    }

    private static let imfFixdate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    /// The responses in `text`, each from its status line to the next one.
    static func split(_ text: String) -> [(status: Int, text: String)] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { part in
            (Int(part.prefix(3)) ?? 0, part)
        }
    }
}
