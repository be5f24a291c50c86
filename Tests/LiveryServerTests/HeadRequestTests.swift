import Foundation
import LiveryServer
import Testing

/// `HEAD` answers every `GET` route with exactly the fields `GET` would send, and no body, on
/// each path that answers `GET`: the raw one (a plain `GET /v1/spec`), the event-loop handler
/// (any other request for the bundle) and the router (every other route).
@Suite(.timeLimit(.minutes(1))) struct HeadRequestTests {
    /// The conditions a request may carry, `ETAG` standing for the current bundle's tag.
    static let conditions = [
        "", "If-None-Match: ETAG\r\n", "If-None-Match: W/ETAG, \"x\"\r\n", "If-None-Match: \"x\"\r\n",
        "If-None-Match: *\r\n",
    ]
    /// Targets answered by each of the three paths.
    static let targets = [
        "/v1/spec",  // raw
        "/v1/spec?wait=0s", "/v1/spec?wait=soon", "/v1/spec?x=1",  // event-loop handler
        "/v1/specs", "/v1/specs/card.yaml", "/v1/specs/none.yaml", "/v1/status", "/healthz", "/metrics",  // router
    ]

    /// Random requests built from the targets and conditions above, the same pairs as `GET`
    /// and as `HEAD`: the status and every field but `Date` agree (and `Content-Length`'s
    /// value on `/metrics`, whose counters the `GET` itself moves), `HEAD` has no body and
    /// `GET`'s body has the advertised length.
    @Test func headAndGetAgreeOnStatusAndFields() async throws {
        try await TestDaemon.with { server in
            let etag = try #require(try await server.http.get("/v1/spec").header("ETag"))
            var generator = SystemRandomNumberGenerator()
            var cases = Self.targets.map { ($0, "") }
            for _ in 0..<12 {
                cases.append(
                    (Self.targets.randomElement(using: &generator)!, Self.conditions.randomElement(using: &generator)!))
            }
            for (target, condition) in cases {
                let extra = condition.replacingOccurrences(of: "ETAG", with: etag)
                let get = try await RawResponse.exchange(
                    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)Connection: close\r\n\r\n", port: server.port)
                let head = try await RawResponse.exchange(
                    "HEAD \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)Connection: close\r\n\r\n", port: server.port
                )
                let excluded: Set<String> = target == "/metrics" ? ["date", "content-length"] : ["date"]
                #expect(get.status == head.status, "\(target) \(extra.debugDescription)")
                #expect(
                    get.fieldLines(except: excluded) == head.fieldLines(except: excluded),
                    "\(target) \(extra.debugDescription)")
                #expect(head.body.isEmpty, "\(target) \(extra.debugDescription): \(head)")
                #expect(head.field("Date") != nil)
                if let length = get.field("Content-Length") {
                    #expect(Int(length) == get.body.count, "\(target) \(extra.debugDescription): \(get)")
                }
            }
        }
    }

    /// Pipelined on one connection: a raw `HEAD`, then the parser's path; the next request is
    /// read right after each `HEAD` answer, so no body can have been sent.
    @Test func pipelinedHeadRequestsAreAnsweredWithoutBodies() async throws {
        try await TestDaemon.with { server in
            let connection = try RawConnection(port: server.port)
            try await connection.send(
                "HEAD /v1/spec HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "HEAD /v1/spec?wait=0s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (text, closed) = try await connection.receiveUntilClosed(timeout: .seconds(10))
            #expect(closed)
            let answers = BundlePathsTests.split(text)
            try #require(answers.count == 4, "\(text)")
            #expect(answers.map(\.status) == [200, 200, 200, 200])
            #expect(answers[0].text.hasSuffix("\r\n\r\n") && answers[1].text.hasSuffix("\r\n\r\n"), "\(text)")
            #expect(answers[2].text.hasSuffix("\r\n\r\n"), "\(text)")
            #expect(answers[3].text.contains(#""status":"ok""#))
        }
    }

    /// What an operator types first.
    @Test func curlDashIShowsTheBundleHead() async throws {
        try await TestDaemon.with { server in
            let output = try await Curl.run(["-sS", "-I", "\(server.base)/v1/spec"])
            let get = try await server.http.get("/v1/spec")
            #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(output)")
            #expect(output.contains("ETag: \(get.header("ETag") ?? "-")\r\n"), "\(output)")
            #expect(output.contains("Content-Length: \(get.body.count)\r\n"), "\(output)")
        }
    }
}
