import Foundation
import LiveryServer
import Testing

/// A known path with a method it does not answer is 405 with `Allow`; an unknown path is 404;
/// `OPTIONS` answers `Allow` and grants no CORS.
@Suite(.timeLimit(.minutes(1))) struct MethodNotAllowedTests {
    @Test(arguments: [
        ("POST", "/v1/spec", "GET, HEAD, OPTIONS"),
        ("PUT", "/v1/spec?wait=1s", "GET, HEAD, OPTIONS"),
        ("DELETE", "/v1/events", "GET, HEAD, OPTIONS"),
        ("POST", "/v1/specs/card.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
        ("PATCH", "/v1/specs/a/b.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
        ("POST", "/healthz", "GET, HEAD, OPTIONS"),
        ("DELETE", "/metrics", "GET, HEAD, OPTIONS"),
        ("PUT", "/v1/history/3", "GET, HEAD, OPTIONS"),
        ("GET", "/v1/history/3/restore", "POST, OPTIONS"),
    ])
    func aKnownPathWithAnotherMethodIs405WithAllow(method: String, target: String, allow: String) async throws {
        try await TestDaemon.with { server in
            let answer = try await RawResponse.exchange(
                "\(method) \(target) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", port: server.port)
            #expect(answer.status == 405, "\(answer)")
            #expect(answer.field("Allow") == allow)
            #expect(answer.field("Content-Type") == "application/problem+json")
        }
    }

    @Test(arguments: ["GET /nope", "POST /nope", "GET /v1/spec/extra", "GET /v1", "OPTIONS /v2/spec", "OPTIONS /v1/history/3/extra"])
    func anUnknownPathIs404(request: String) async throws {
        try await TestDaemon.with { server in
            let answer = try await RawResponse.exchange(
                "\(request) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
            #expect(answer.status == 404, "\(answer)")
            #expect(answer.field("Allow") == nil)
        }
    }

    @Test(arguments: [
        ("/v1/spec", "GET, HEAD, OPTIONS"), ("/v1/specs/card.yaml", "GET, HEAD, PUT, DELETE, OPTIONS"),
        ("/v1/history/7", "GET, HEAD, OPTIONS"),
    ])
    func optionsAnswersAllowAndNoCORS(target: String, allow: String) async throws {
        try await TestDaemon.with { server in
            let answer = try await RawResponse.exchange(
                "OPTIONS \(target) HTTP/1.1\r\nHost: x\r\nOrigin: https://elsewhere.example\r\n"
                    + "Access-Control-Request-Method: PUT\r\nConnection: close\r\n\r\n", port: server.port)
            #expect(answer.status == 204, "\(answer)")
            #expect(answer.field("Allow") == allow)
            #expect(!answer.fields.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(answer)")
        }
    }
}
