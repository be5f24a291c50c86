import Foundation
import LiveryServer
import Testing

/// A known path with a method it does not answer is 405 with `Allow`; an unknown path is 404;
/// `OPTIONS` answers `Allow` and grants no CORS. One daemon per test, the table looped over:
/// a daemon per case would start dozens at once beside the other suites.
@Suite(.timeLimit(.minutes(1))) struct MethodNotAllowedTests {
    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        let cases = [
            ("POST", "/v1/spec", "GET, HEAD, OPTIONS"),
            ("PUT", "/v1/spec?wait=1s", "GET, HEAD, OPTIONS"),
            ("DELETE", "/v1/events", "GET, HEAD, OPTIONS"),
            ("POST", "/v1/specs/card.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
            ("PATCH", "/v1/specs/a/b.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
            ("POST", "/healthz", "GET, HEAD, OPTIONS"),
            ("DELETE", "/metrics", "GET, HEAD, OPTIONS"),
            ("PUT", "/v1/history/3", "GET, HEAD, OPTIONS"),
            ("GET", "/v1/history/3/restore", "POST, OPTIONS"),
            ("TRACE", "/healthz", "GET, HEAD, OPTIONS"),
            ("TRACE", "/studio", "GET, HEAD, OPTIONS"),
            ("QUERY", "/v1/clients", "GET, HEAD, OPTIONS"),
        ]
        try await TestDaemon.with { server in
            for (method, target, allow) in cases {
                let answer = try await RawResponse.exchange(
                    "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    port: server.port)
                #expect(answer.status == 405, "\(method) \(target): \(answer)")
                #expect(answer.field("Allow") == allow, "\(method) \(target)")
                #expect(answer.field("Content-Type") == "application/problem+json")
            }
        }
    }

    @Test func anUnknownPathIs404() async throws {
        try await TestDaemon.with { server in
            for request in [
                "GET /nope", "POST /nope", "GET /v1/spec/extra", "GET /v1", "OPTIONS /v2/spec",
                "OPTIONS /v1/history/3/extra",
            ] {
                let answer = try await RawResponse.exchange(
                    "\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: server.port)
                #expect(answer.status == 404, "\(request): \(answer)")
                #expect(answer.field("Allow") == nil)
            }
        }
    }

    @Test func optionsAnswersAllowAndNoCORS() async throws {
        try await TestDaemon.with { server in
            for (target, allow) in [
                ("/v1/spec", "GET, HEAD, OPTIONS"), ("/v1/specs/card.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
                ("/v1/history/7", "GET, HEAD, OPTIONS"),
            ] {
                let answer = try await RawResponse.exchange(
                    "OPTIONS \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://elsewhere.example\r\n"
                        + "Access-Control-Request-Method: PUT\r\nConnection: close\r\n\r\n", port: server.port)
                #expect(answer.status == 204, "\(target): \(answer)")
                #expect(answer.field("Allow") == allow)
                #expect(!answer.fields.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(answer)")
            }
        }
    }
}
